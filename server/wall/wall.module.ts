import type { Sqlite } from '../db/open.js';
import type { EventBus } from '../events/bus.js';
import { TablesRepo } from '../photos/tables.repo.js';
import type { Module } from '../http/module.js';
import type { SettingsService } from '../settings/settings.service.js';
import { adminWallRouter, publicWallRouter } from './wall.routes.js';
import { WallService, type ShowableCheck } from './wall.service.js';
import { WallRegistry } from './walls.js';

/** The wall that runs itself: the couple's remote and the walls' heartbeat. */
export function createWallModule(deps: { settings: SettingsService; bus: EventBus; sqlite: Sqlite; showable: ShowableCheck; now?: () => number }): Module & { wall: WallService } {
  const wall = new WallService({ settings: deps.settings, bus: deps.bus, walls: new WallRegistry(deps.now), showable: deps.showable, tables: new TablesRepo(deps.sqlite) });
  return { name: 'wall', wall, publicApi: [publicWallRouter(wall)], adminApi: [adminWallRouter(wall)] };
}

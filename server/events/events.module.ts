import type { WallSource } from '../../common/api-types.js';
import type { Module } from '../http/module.js';
import type { SettingsService } from '../settings/settings.service.js';
import { log } from '../log.js';
import type { EventBus } from './bus.js';
import { eventsRouter } from './events.routes.js';
import { EventStreams } from './events.service.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface EventsModuleOptions {
  /** How often an idle stream gets a ping comment (tests shorten it). */
  pingMs?: number;
}

/** The reception wall's live feed (GET /api/events); old events are pruned daily. */
export function createEventsModule(deps: { bus: EventBus; settings?: SettingsService; maxStreams?: number }, opts: EventsModuleOptions = {}): Module & { streams: EventStreams } {
  const { bus } = deps;
  // wall_source "highlights": a newly visible photo reaches the wall only when it is a highlight.
  let source: WallSource = 'all';
  const streams = new EventStreams(bus, {
    maxTotal: deps.maxStreams,
    shows: (ev) => source === 'all' || ev.type !== 'photo-visible' || (ev.data as { highlighted?: boolean }).highlighted === true,
  });
  // Pausing or resuming the wall, its curtain, its layout, or choosing what it shows, reaches every open wall at once.
  const stopWallState = deps.settings?.onChange(async (next, previous) => {
    source = next.wall_source;
    const sourceChanged = next.wall_source !== previous.wall_source;
    const changed = next.wall_paused !== previous.wall_paused || next.wall_blank !== previous.wall_blank || next.wall_layout !== previous.wall_layout;
    if (changed || sourceChanged) {
      await bus.wallState({ paused: next.wall_paused, blank: next.wall_blank, layout: next.wall_layout }, sourceChanged ? next.wall_source : undefined);
    }
  });
  let pruneTimer: NodeJS.Timeout | undefined;
  const prune = () => bus.prune().catch((err) => log.warn('Could not prune old wall events', err));
  return {
    name: 'events',
    streams,
    publicApi: [eventsRouter(streams, { pingMs: opts.pingMs })],
    async start() {
      if (deps.settings) source = (await deps.settings.get()).wall_source;
      void prune();
      pruneTimer = setInterval(prune, DAY_MS);
      pruneTimer.unref();
    },
    closing() {
      streams.closeAll();
    },
    stop() {
      stopWallState?.();
      clearInterval(pruneTimer);
      streams.closeAll();
    },
  };
}

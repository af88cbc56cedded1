import { WALL_LAYOUTS, type WallCommand, type WallControls, type WallLayout } from '../../common/api-types.js';
import { msg, type Message } from '../../common/languages.js';
import { invalid, invalidAll, notFound } from '../errors.js';
import type { EventBus } from '../events/bus.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { TablesRepo } from '../photos/tables.repo.js';
import type { Heartbeat, WallRegistry } from './walls.js';

export const ANNOUNCE_MAX_CHARS = 140;
export const ANNOUNCE_SECONDS = { min: 5, max: 60 } as const;

/** Whether a photo can go up on the wall now (visible, processed, with a display copy). */
export type ShowableCheck = (photoId: string) => Promise<boolean>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Photo ids are base64url (crypto.randomBytes(..).toString("base64url")): letters, digits, - and _. */
const PHOTO_ID = /^[A-Za-z0-9_-]{1,64}$/;
const WALL_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** The couple's remote: the wall's pause, curtain and layout (settings), and commands that reach every open wall at once. */
export class WallService {
  constructor(
    private readonly deps: { settings: SettingsService; bus: EventBus; walls: WallRegistry; showable: ShowableCheck; tables: Pick<TablesRepo, 'countsByTable'> },
  ) {}

  async controls(): Promise<WallControls> {
    const s = await this.deps.settings.get();
    return { paused: s.wall_paused, blank: s.wall_blank, layout: s.wall_layout };
  }

  /** PUT /admin/api/wall: any of paused, blank, layout; the settings' listener tells the walls. */
  async setControls(body: unknown): Promise<WallControls> {
    if (!isObject(body)) throw invalid('errors.wall.not_object');
    const problems: Message[] = [];
    const patch: Record<string, unknown> = {};
    for (const key of Object.keys(body)) if (!['paused', 'blank', 'layout'].includes(key)) problems.push(msg('errors.settings.unknown', { key }));
    for (const key of ['paused', 'blank'] as const) {
      if (body[key] === undefined) continue;
      if (typeof body[key] === 'boolean') patch[`wall_${key}`] = body[key];
      else problems.push(msg('errors.rule.boolean', { field: key }));
    }
    if (body.layout !== undefined) {
      if (WALL_LAYOUTS.includes(body.layout as WallLayout)) patch.wall_layout = body.layout;
      else problems.push(msg('errors.settings.wall_layout'));
    }
    if (problems.length) throw invalidAll(problems);
    if (Object.keys(patch).length) await this.deps.settings.update(patch);
    return this.controls();
  }

  /** POST /admin/api/wall/command: next, previous, or show a visible photo. */
  async command(body: unknown): Promise<WallCommand> {
    if (!isObject(body)) throw invalid('errors.wall.not_object');
    const { command } = body;
    if (command === 'next' || command === 'previous') {
      await this.deps.bus.wallCommand({ command });
      return { command };
    }
    if (command !== 'show') throw invalid('errors.wall.command');
    const id = body.photo_id;
    if (typeof id !== 'string' || !PHOTO_ID.test(id)) throw invalid('errors.wall.photo_id');
    if (!(await this.deps.showable(id))) throw notFound('errors.wall.photo_not_visible');
    await this.deps.bus.wallCommand({ command, photo_id: id });
    return { command, photo_id: id };
  }

  /** POST /admin/api/wall/announce: 1-140 characters over the wall for 5-60 s. */
  async announce(body: unknown): Promise<{ text: string; seconds: number }> {
    if (!isObject(body)) throw invalid('errors.wall.not_object');
    const problems: Message[] = [];
    const text = typeof body.text === 'string' ? body.text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').trim() : '';
    if (!text || [...text].length > ANNOUNCE_MAX_CHARS) problems.push(msg('errors.wall.announce_text', { max: ANNOUNCE_MAX_CHARS }));
    const seconds = body.seconds === undefined ? 15 : body.seconds;
    if (!Number.isInteger(seconds) || (seconds as number) < ANNOUNCE_SECONDS.min || (seconds as number) > ANNOUNCE_SECONDS.max) {
      problems.push(msg('errors.wall.announce_seconds', { min: ANNOUNCE_SECONDS.min, max: ANNOUNCE_SECONDS.max }));
    }
    if (problems.length) throw invalidAll(problems);
    const out = { text, seconds: seconds as number };
    await this.deps.bus.wallAnnounce(out);
    return out;
  }

  /** POST /api/wall/heartbeat: an open wall says what it shows. */
  heartbeat(body: unknown): void {
    const ok =
      isObject(body) &&
      typeof body.id === 'string' &&
      WALL_ID.test(body.id) &&
      (body.showing === null || (typeof body.showing === 'string' && body.showing.length <= 80)) &&
      WALL_LAYOUTS.includes(body.layout as WallLayout) &&
      typeof body.blank === 'boolean' &&
      typeof body.paused === 'boolean';
    if (!ok) throw invalid('errors.wall.heartbeat');
    const b = body as unknown as Heartbeat;
    this.deps.walls.report({ id: b.id, showing: b.showing, layout: b.layout, blank: b.blank, paused: b.paused });
  }

  /**
   * Visible photos per table (tables 1 to `tables` of the settings, busiest first, ties by number);
   * `withPhotos`: only the tables that have some (the wall's slide, the gallery's filter).
   */
  async tableCounts(withPhotos = false): Promise<{ table: number; count: number }[]> {
    const { tables } = await this.deps.settings.get();
    const counts = this.deps.tables.countsByTable();
    const all = Array.from({ length: tables }, (_, i) => ({ table: i + 1, count: counts.get(i + 1) ?? 0 }));
    all.sort((a, b) => b.count - a.count || a.table - b.table);
    return withPhotos ? all.filter((t) => t.count > 0) : all;
  }

  walls() {
    const walls = this.deps.walls.list();
    return { walls, connected: walls.filter((w) => !w.lost).length };
  }
}

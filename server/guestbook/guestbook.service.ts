import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { AdminGuestbookList, GuestbookStatus } from '../../common/api-types.js';
import { msg } from '../../common/languages.js';
import { cleanGuestbookMessage, cleanUploaderName } from '../../common/rules.js';
import { recordActivity } from '../activity/activity.repo.js';
import type { AuthUser } from '../auth/permissions.js';
import type { DataPaths } from '../context.js';
import type { DB, GuestbookRow, NewGuestbookRow } from '../db/schema.js';
import { AppError, notFound } from '../errors.js';
import type { EventBus } from '../events/bus.js';
import { log } from '../log.js';
import { resolveStored } from '../photos/photo-files.js';
import type { VoiceNotes } from '../processing/voice-notes.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { Durable } from '../storage/durable.js';
import type { StorageGuard } from '../storage/storage.js';
import { newId } from '../uploads/store.js';
import type { ReadForm } from '../uploads/streams.js';
import { GuestbookRepo, type GuestbookFilter } from './guestbook.repo.js';
import { guestbookRowToAdmin, guestbookRowToEntry, guestbookRowToMine, guestbookRowToWall } from './guestbook.mappers.js';
import { checkVoiceNote, fieldError, incomingVoiceNote, readGuestbookForm } from './voice-note-intake.js';

export interface GuestbookDeps {
  db: Kysely<DB>;
  paths: DataPaths;
  bus: EventBus;
  settings: SettingsService;
  voiceNotes: VoiceNotes;
  storage: StorageGuard;
  /** The same syncs as the uploads' (one sync serves both under a rush). */
  durable: Durable;
  /** Told when a message waits for the couple's approval; `count` reads how many wait. */
  onWaiting?: (count: () => Promise<number>) => void;
}

const HOUR_MS = 60 * 60_000;
/** A guest (by the wedding_guest cookie) writes at most this many messages an hour. */
export const ENTRIES_PER_HOUR = 10;

const userName = (u: AuthUser) => u.full_name || u.username;
/** The dashboard's activity lines about a message: [with the guest's name, without one]. */
const ACTIVITY = {
  wrote: ['activity.guestbook_wrote_named', 'activity.guestbook_wrote'],
  voice: ['activity.guestbook_voice_named', 'activity.guestbook_voice'],
  approved: ['activity.guestbook_approved_named', 'activity.guestbook_approved'],
  approved_auto: ['activity.guestbook_approved_auto_named', 'activity.guestbook_approved_auto'],
  deleted: ['activity.guestbook_deleted_named', 'activity.guestbook_deleted'],
  deleted_own: ['activity.guestbook_deleted_own_named', 'activity.guestbook_deleted_own'],
} as const;
const guestbookActivity = (what: keyof typeof ACTIVITY, name: string | null) => (name ? msg(ACTIVITY[what][0], { name }) : msg(ACTIVITY[what][1]));
const page = (total: number, limit: number, offset: number, shown: number) => ({ total, limit, offset, has_more: offset + shown < total });

/** The guestbook's rules: writing, reading, a guest's own messages, moderation. */
export class GuestbookService {
  readonly repo: GuestbookRepo;

  constructor(private readonly d: GuestbookDeps) {
    this.repo = new GuestbookRepo(d.db);
  }

  /**
   * rate_limited (with the wait) once the guest wrote ENTRIES_PER_HOUR messages within the hour;
   * for a request without a guest cookie, once its address did (`anonymousAddress`).
   */
  async ensureRoom(guestId: string | undefined, anonymousAddress: string | null): Promise<void> {
    const since = new Date(Date.now() - HOUR_MS).toISOString();
    const recent = anonymousAddress !== null ? await this.repo.recentByAddress(anonymousAddress, since) : guestId ? await this.repo.recentByGuest(guestId, since) : undefined;
    if (recent && recent.count >= ENTRIES_PER_HOUR) throw this.tooMany(recent.oldest);
  }

  private tooMany(oldest: string | null): AppError {
    const wait = oldest ? Date.parse(oldest) + HOUR_MS - Date.now() : HOUR_MS;
    return new AppError('rate_limited', 'errors.guestbook.too_many', undefined, { retry_after: Math.max(1, Math.ceil(wait / 1000)) });
  }

  /** Before a form of about `bytes` is read: storage_full when it cannot fit (nothing is read or kept). */
  admit(bytes: number): Promise<void> {
    return this.d.storage.admit(bytes);
  }

  /**
   * A new message from guest `guestId`: the form is read (its voice note written and synced),
   * checked field by field, the voice note moved into place, then the row stored with its
   * activity and its voice note's job in one transaction, and the WAL synced before the answer.
   * Whatever fails, nothing of the message is kept. `anonymousAddress`: the request came without
   * a guest cookie, so the hourly limit counts by this address.
   */
  async create(readForm: ReadForm, guestId: string, anonymousAddress: string | null = null): Promise<{ id: string; status: GuestbookStatus }> {
    const temp = incomingVoiceNote(this.d.paths.incoming);
    let placed: string | undefined;
    let committed = false;
    try {
      const { fields, sink, hash } = await readGuestbookForm(readForm, temp);
      const message = cleanGuestbookMessage(fields.message);
      if ('problem' in message) throw fieldError('invalid_input', 'message', message.problem);
      const name = cleanUploaderName(fields.name);
      if ('problem' in name) throw fieldError('invalid_input', 'name', name.problem);
      const voice = sink ? await checkVoiceNote(temp, sink.seen, hash.digest('hex'), this.d.voiceNotes.probe) : undefined;

      const id = newId();
      const now = Date.now();
      if (voice) {
        placed = path.join(this.d.paths.guestbook, `${id}.${voice.type.ext}`);
        await fs.rename(temp, placed);
        await this.d.durable.guestbook();
      }
      // moderation "auto": a message shows at once; one with a voice note once its copy is ready.
      const manual = (await this.d.settings.get()).moderation === 'manual';
      const visible = !manual && !voice;
      const row: NewGuestbookRow = {
        id,
        guest_id: guestId,
        anonymous_address: anonymousAddress,
        name: name.name,
        message: message.message,
        is_visible: visible ? 1 : 0,
        approved_at: visible ? new Date(now).toISOString() : null,
        created_at: new Date(now).toISOString(),
        audio_path: placed ? path.relative(this.d.paths.root, placed) : null,
        audio_type: voice?.type.mime ?? null,
        audio_size: voice?.size ?? null,
        audio_sha256: voice?.sha256 ?? null,
        duration: voice?.duration ?? null,
        web_audio_path: null,
        web_audio_size: null,
        audio_status: voice ? 'processing' : 'none',
        audio_error: null,
      };
      const hourAgo = new Date(now - HOUR_MS).toISOString();
      const stored = await this.repo.insertWithin(row, { sinceIso: hourAgo, max: ENTRIES_PER_HOUR }, async (tx) => {
        await recordActivity(tx, 'upload', guestbookActivity(voice ? 'voice' : 'wrote', name.name), name.name);
        if (voice) await this.d.voiceNotes.enqueueCopy(id, tx);
      });
      if (!stored) {
        const recent = anonymousAddress !== null ? await this.repo.recentByAddress(anonymousAddress, hourAgo) : await this.repo.recentByGuest(guestId, hourAgo);
        throw this.tooMany(recent.oldest);
      }
      committed = true;
      // The guest is told "saved" only once the commit is on the disk.
      await this.d.durable.commits();
      if (visible) await this.d.bus.guestbookVisible(guestbookRowToWall({ id, name: name.name, message: message.message, created_at: row.created_at }));
      if (manual) this.d.onWaiting?.(() => this.repo.count('pending'));
      return { id, status: visible ? 'visible' : 'pending' };
    } catch (e) {
      if (placed && !committed) await fs.rm(placed, { force: true });
      throw this.d.storage.failure(e);
    } finally {
      await fs.rm(temp, { force: true });
    }
  }

  /** Visible messages, newest first. */
  async visible(limit: number, offset: number) {
    const [rows, total] = await Promise.all([this.repo.list('visible', limit, offset), this.repo.count('visible')]);
    return { entries: rows.map(guestbookRowToEntry), pagination: page(total, limit, offset, rows.length) };
  }

  /** This guest's own messages, hidden ones included, newest first. */
  async mine(guestId: string, limit: number, offset: number) {
    const [rows, total] = await Promise.all([this.repo.list('all', limit, offset, guestId), this.repo.count('all', guestId)]);
    return { entries: rows.map(guestbookRowToMine), pagination: page(total, limit, offset, rows.length) };
  }

  /** Deletes one of this guest's messages; anyone else's (or an unknown id) is not_found, untouched. */
  async deleteMine(guestId: string, id: string): Promise<void> {
    const row = await this.remove(id, guestId);
    await recordActivity(this.d.db, 'other', guestbookActivity('deleted_own', row.name), row.name);
  }

  async adminList(filter: GuestbookFilter, pageNo: number, perPage: number): Promise<AdminGuestbookList> {
    const [rows, total, pending] = await Promise.all([
      this.repo.list(filter, perPage, (pageNo - 1) * perPage),
      this.repo.count(filter),
      this.repo.count('pending'),
    ]);
    const pages = Math.ceil(total / perPage);
    return {
      entries: rows.map(guestbookRowToAdmin),
      pagination: { page: pageNo, per_page: perPage, pages, total, has_prev: pageNo > 1, has_next: pageNo < pages },
      pending,
    };
  }

  async setVisible(id: string, visible: boolean, user: AuthUser | null) {
    if (!(await this.repo.get(id))) throw notFound('errors.guestbook.not_found');
    const changed = await this.repo.setVisible(id, visible, new Date().toISOString());
    if (changed) await this.announce(changed, visible, user);
    const row = changed ?? (await this.repo.get(id));
    if (!row) throw notFound('errors.guestbook.not_found');
    return guestbookRowToAdmin(row);
  }

  /**
   * moderation "auto": a message whose voice note is ready, hidden and never approved, becomes
   * visible as an admin's approval would make it. One whose voice note failed stays hidden.
   */
  async autoApprove(id: string): Promise<void> {
    if ((await this.d.settings.get()).moderation !== 'auto') return;
    const row = await this.repo.get(id);
    if (!row || row.is_visible === 1 || row.approved_at !== null || row.audio_status !== 'complete') return;
    const changed = await this.repo.setVisible(id, true, new Date().toISOString());
    if (changed) await this.announce(changed, true, null);
  }

  private async announce(row: GuestbookRow, visible: boolean, user: AuthUser | null): Promise<void> {
    if (!visible) return void (await this.d.bus.guestbookHidden(row.id));
    await this.d.bus.guestbookVisible(guestbookRowToWall(row));
    await recordActivity(this.d.db, 'approval', guestbookActivity(user === null ? 'approved_auto' : 'approved', row.name), user ? userName(user) : null);
  }

  async delete(id: string, user: AuthUser): Promise<void> {
    const row = await this.remove(id);
    await recordActivity(this.d.db, 'other', guestbookActivity('deleted', row.name), userName(user));
  }

  /** The row, then its files, then live screens; not_found when nothing matched. */
  private async remove(id: string, guestId?: string): Promise<GuestbookRow> {
    const row = await this.repo.delete(id, guestId);
    if (!row) throw notFound('errors.guestbook.not_found');
    for (const rel of [row.audio_path, row.web_audio_path]) {
      const abs = resolveStored(this.d.paths, rel);
      if (abs) await fs.rm(abs, { force: true }).catch((e) => log.error(`Could not remove ${abs}`, e));
    }
    if (row.is_visible) await this.d.bus.guestbookHidden(row.id);
    return row;
  }

  /**
   * The playable copy of a message's voice note: for anyone while the message is visible, else
   * only for signed-in users and the guest who wrote it (to anyone else it does not exist).
   */
  async audioFile(id: string, viewer: { signedIn: boolean; guestId: string | undefined }): Promise<string> {
    const row = await this.repo.get(id);
    const allowed = row && (row.is_visible === 1 || viewer.signedIn || (row.guest_id !== null && row.guest_id === viewer.guestId));
    const abs = allowed ? resolveStored(this.d.paths, row.web_audio_path) : null;
    if (!abs) throw notFound('errors.guestbook.not_found');
    return abs;
  }
}

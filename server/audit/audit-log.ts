import type { Kysely } from 'kysely';
import type { AuditEntry } from '../../common/security-types.js';
import type { DB, NewAuditLogRow } from '../db/schema.js';
import { WriteBehind } from '../db/write-behind.js';
import { log } from '../log.js';
import { AuditRepo, type AuditQuery } from './audit.repo.js';

/** Entries are kept this long, then pruned. */
export const AUDIT_KEEP_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Actions by nobody signed in: at most one entry per action and address in this time. */
export const ANONYMOUS_EVERY_MS = 60 * 60 * 1000;
/** Addresses remembered for that; beyond, the oldest are forgotten. */
const ANONYMOUS_REMEMBERED = 10_000;

/** Who did it and from where: the signed-in user, or the name typed at a failed sign-in. */
export interface AuditActor {
  user: { id: number; username: string } | null;
  /** For failed sign-ins: the name that was typed. */
  username?: string | null;
  address: string | null;
}

export interface AuditDetails {
  ids?: readonly (string | number)[];
  /** Who, when nobody is signed in (the name typed at a failed sign-in). */
  username?: string | null;
  detail?: Record<string, unknown>;
}

/**
 * The record of every admin action and sign-in. `record` returns at once: entries are written
 * after the answer, many per statement (db/write-behind.ts), so no request waits for the log.
 * An entry whose write fails stays queued and goes out with the next one.
 */
export class AuditLog {
  private readonly repo: AuditRepo;
  private readonly pending: WriteBehind<NewAuditLogRow>;
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  /** "action address" -> when it was last recorded for nobody signed in. */
  private readonly anonymousAt = new Map<string, number>();

  constructor(
    db: Kysely<DB>,
    private readonly now: () => number = Date.now,
  ) {
    this.repo = new AuditRepo(db);
    this.pending = new WriteBehind((batch) => this.repo.insertMany(batch.map(([, row]) => row)), 'the audit log');
  }

  record(action: string, who: AuditActor, details: AuditDetails = {}): void {
    const ids = details.ids?.map(String);
    this.pending.set(String(++this.seq), {
      at: new Date(this.now()).toISOString(),
      user_id: who.user?.id ?? null,
      username: (who.user?.username ?? who.username ?? null)?.slice(0, 200) ?? null,
      action,
      ids: ids?.length ? JSON.stringify(ids) : null,
      detail: details.detail ? JSON.stringify(details.detail) : null,
      address: who.address,
    });
  }

  /**
   * Records an action done by nobody signed in (a guest's ZIP download) at most once per action
   * and address an hour, so that repeating it cannot fill the log.
   */
  recordAnonymous(action: string, address: string | null, details: AuditDetails = {}): void {
    const key = `${action} ${address ?? ''}`;
    const now = this.now();
    const last = this.anonymousAt.get(key);
    if (last !== undefined && now - last < ANONYMOUS_EVERY_MS) return;
    this.anonymousAt.delete(key);
    this.anonymousAt.set(key, now);
    // Oldest first: the expired go, and past the cap the oldest too.
    for (const [k, at] of this.anonymousAt) {
      if (this.anonymousAt.size <= ANONYMOUS_REMEMBERED && now - at < ANONYMOUS_EVERY_MS) break;
      this.anonymousAt.delete(k);
    }
    this.record(action, { user: null, address }, details);
  }

  /** A page of entries, newest first; what was recorded before the call is in it. */
  async list(q: AuditQuery): Promise<{ entries: AuditEntry[]; total: number; actions: string[] }> {
    await this.pending.flush();
    const [page, actions] = await Promise.all([this.repo.list(q), this.repo.actions()]);
    return { ...page, actions };
  }

  /** Removes entries older than a year. */
  async prune(): Promise<number> {
    return this.repo.pruneBefore(new Date(this.now() - AUDIT_KEEP_DAYS * DAY_MS).toISOString());
  }

  /** Prunes now and once a day. */
  start(): void {
    const prune = () => this.prune().catch((e) => log.warn('Could not prune the audit log; trying again tomorrow', e));
    void prune();
    this.timer = setInterval(prune, DAY_MS);
    this.timer.unref();
  }

  /** Writes what is still queued. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.pending.flush();
  }
}

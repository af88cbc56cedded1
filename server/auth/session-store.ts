// express-session (not express) is imported because this is its Store adapter: the sessions repository.
import session from 'express-session';
import type { Sqlite } from '../db/open.js';
import { log } from '../log.js';

const DAY = 24 * 60 * 60 * 1000;
/** A sign-in lasts this long whatever its use (the cookie's max age, and the cap on every expiry). */
export const SESSION_LIFETIME_MS = 30 * DAY;

/**
 * express-session Store on the app's own better-sqlite3 database. It writes only when a
 * session changes or its expiry moves by more than an hour, never on every request.
 */
export class SqliteSessionStore extends session.Store {
  private readonly stmts;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly db: Sqlite, purgeEveryMs = 15 * 60 * 1000) {
    super();
    this.stmts = {
      get: db.prepare<[string, number], { sess: string }>('SELECT sess FROM sessions WHERE sid = ? AND expires > ?'),
      set: db.prepare<[string, string, number]>(
        'INSERT INTO sessions (sid, sess, expires) VALUES (?, ?, ?) ON CONFLICT (sid) DO UPDATE SET sess = excluded.sess, expires = excluded.expires',
      ),
      destroy: db.prepare<[string]>('DELETE FROM sessions WHERE sid = ?'),
      touch: db.prepare<[number, string, number]>('UPDATE sessions SET expires = ? WHERE sid = ? AND expires < ?'),
      purge: db.prepare<[number]>('DELETE FROM sessions WHERE expires <= ?'),
      destroyForUser: db.prepare<[string, string | null]>(
        `DELETE FROM sessions WHERE json_extract(sess, '$.userId') = CAST(? AS INTEGER) AND sid IS NOT ?`,
      ),
    };
    this.purgeQuietly();
    this.timer = setInterval(() => this.purgeQuietly(), purgeEveryMs);
    this.timer.unref();
  }

  /**
   * Purging is housekeeping: a full disk (SQLITE_FULL) or a busy database must not become an
   * uncaught exception that stops the server (or keeps it from starting); the next run retries.
   */
  private purgeQuietly(): void {
    try {
      this.purgeExpired();
    } catch (e) {
      log.warn('Could not remove expired sessions; trying again later', e);
    }
  }

  /**
   * express-session moves the cookie's expiry forward on use; the stored one never passes
   * 30 days after sign-in, so a session ends then even for a client that keeps using it.
   */
  private expiry(sess: session.SessionData): number {
    const e = sess.cookie?.expires;
    const sliding = e ? new Date(e).getTime() : Date.now() + DAY;
    return typeof sess.signedInAt === 'number' ? Math.min(sliding, sess.signedInAt + SESSION_LIFETIME_MS) : sliding;
  }

  purgeExpired(): number {
    return this.stmts.purge.run(Date.now()).changes;
  }

  /** Signs a user out everywhere (deactivated or deleted accounts), or everywhere but `exceptSid`. */
  destroyUserSessions(userId: number, exceptSid?: string): void {
    this.stmts.destroyForUser.run(String(userId), exceptSid ?? null);
  }

  override get(sid: string, cb: (err: unknown, session?: session.SessionData | null) => void): void {
    try {
      const now = Date.now();
      const row = this.stmts.get.get(sid, now);
      const sess = row ? (JSON.parse(row.sess) as session.SessionData) : null;
      // The stored expiry already stops there; this holds for rows written before it did.
      const over = sess !== null && typeof sess.signedInAt === 'number' && sess.signedInAt + SESSION_LIFETIME_MS <= now;
      cb(null, over ? null : sess);
    } catch (err) {
      cb(err);
    }
  }

  override set(sid: string, sess: session.SessionData, cb?: (err?: unknown) => void): void {
    try {
      this.stmts.set.run(sid, JSON.stringify(sess), this.expiry(sess));
      cb?.();
    } catch (err) {
      cb?.(err);
    }
  }

  override destroy(sid: string, cb?: (err?: unknown) => void): void {
    try {
      this.stmts.destroy.run(sid);
      cb?.();
    } catch (err) {
      cb?.(err);
    }
  }

  override touch(sid: string, sess: session.SessionData, cb?: (err?: unknown) => void): void {
    try {
      const expires = this.expiry(sess);
      this.stmts.touch.run(expires, sid, expires - 60 * 60 * 1000);
      cb?.();
    } catch (err) {
      cb?.(err);
    }
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}

declare module 'express-session' {
  interface SessionData {
    userId: number;
    /** ms since the epoch: the session ends SESSION_LIFETIME_MS after it. */
    signedInAt: number;
  }
}

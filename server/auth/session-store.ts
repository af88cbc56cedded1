// express-session (not express) is imported because this is its Store adapter: the sessions repository.
import session from 'express-session';
import type { Sqlite } from '../db/open.js';
import { localWriter, type StatementWriter } from '../db/writer.js';
import { log } from '../log.js';

const DAY = 24 * 60 * 60 * 1000;
/** A sign-in lasts this long whatever its use (the cookie's max age, and the cap on every expiry). */
export const SESSION_LIFETIME_MS = 30 * DAY;

/**
 * express-session Store on the app's own better-sqlite3 database. It writes only when a
 * session changes or its expiry moves by more than an hour, never on every request.
 */
export class SqliteSessionStore extends session.Store {
  private readonly lookup;
  private readonly storedExpiry;
  private readonly writer: StatementWriter;
  private timer: NodeJS.Timeout | undefined;

  /** Reads run on `db`; writes go to `writer` (the server's writer thread), by default `db` itself. */
  constructor(db: Sqlite, options: { writer?: StatementWriter; purgeEveryMs?: number } = {}) {
    super();
    this.writer = options.writer ?? localWriter(db);
    this.lookup = db.prepare<[string, number], { sess: string }>('SELECT sess FROM sessions WHERE sid = ? AND expires > ?');
    this.storedExpiry = db.prepare<[string], { expires: number }>('SELECT expires FROM sessions WHERE sid = ?');
    this.purgeQuietly();
    this.timer = setInterval(() => this.purgeQuietly(), options.purgeEveryMs ?? 15 * 60 * 1000);
    this.timer.unref();
  }

  /**
   * Purging is housekeeping: a full disk (SQLITE_FULL) or a busy database must not become an
   * uncaught exception that stops the server (or keeps it from starting); the next run retries.
   */
  private purgeQuietly(): void {
    this.purgeExpired().catch((e) => log.warn('Could not remove expired sessions; trying again later', e));
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

  async purgeExpired(): Promise<number> {
    return (await this.writer.run('DELETE FROM sessions WHERE expires <= ?', [Date.now()])).changes;
  }

  /** Signs a user out everywhere (deactivated or deleted accounts), or everywhere but `exceptSid`. */
  async destroyUserSessions(userId: number, exceptSid?: string): Promise<void> {
    await this.writer.run(`DELETE FROM sessions WHERE json_extract(sess, '$.userId') = CAST(? AS INTEGER) AND sid IS NOT ?`, [String(userId), exceptSid ?? null]);
  }

  /** Runs a write and answers express-session's callback. */
  private write(sql: string, params: unknown[], cb?: (err?: unknown) => void): void {
    this.writer.run(sql, params).then(() => cb?.(), (err) => cb?.(err));
  }

  override get(sid: string, cb: (err: unknown, session?: session.SessionData | null) => void): void {
    try {
      const now = Date.now();
      const row = this.lookup.get(sid, now);
      const sess = row ? (JSON.parse(row.sess) as session.SessionData) : null;
      // The stored expiry already stops there; this holds for rows written before it did.
      const over = sess !== null && typeof sess.signedInAt === 'number' && sess.signedInAt + SESSION_LIFETIME_MS <= now;
      cb(null, over ? null : sess);
    } catch (err) {
      cb(err);
    }
  }

  override set(sid: string, sess: session.SessionData, cb?: (err?: unknown) => void): void {
    let json: string;
    try {
      json = JSON.stringify(sess);
    } catch (err) {
      return cb?.(err);
    }
    this.write(
      'INSERT INTO sessions (sid, sess, expires) VALUES (?, ?, ?) ON CONFLICT (sid) DO UPDATE SET sess = excluded.sess, expires = excluded.expires',
      [sid, json, this.expiry(sess)],
      cb,
    );
  }

  override destroy(sid: string, cb?: (err?: unknown) => void): void {
    this.write('DELETE FROM sessions WHERE sid = ?', [sid], cb);
  }

  /**
   * express-session touches the session on every request and holds the answer until this calls
   * back. The stored expiry is read first, and moved only when it would move by more than an
   * hour; that write then goes on after the answer (it only extends the sign-in). Even a write
   * that changes nothing takes the database's write lock, which an upload rush keeps busy.
   */
  override touch(sid: string, sess: session.SessionData, cb?: (err?: unknown) => void): void {
    const expires = this.expiry(sess);
    const moveIfBefore = expires - 60 * 60 * 1000;
    try {
      const stored = this.storedExpiry.get(sid);
      if (stored && stored.expires < moveIfBefore) {
        this.writer
          .run('UPDATE sessions SET expires = ? WHERE sid = ? AND expires < ?', [expires, sid, moveIfBefore])
          .catch((e) => log.warn('Could not extend a sign-in; the next request tries again', e));
      }
    } catch (err) {
      return cb?.(err);
    }
    cb?.();
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

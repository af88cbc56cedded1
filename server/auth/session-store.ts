// express-session (not express) is imported because this is its Store adapter: the sessions repository.
import session from 'express-session';
import type { Sqlite } from '../db/open.js';

const DAY = 24 * 60 * 60 * 1000;

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
      destroyForUser: db.prepare<[string]>(`DELETE FROM sessions WHERE json_extract(sess, '$.userId') = CAST(? AS INTEGER)`),
    };
    this.purgeExpired();
    this.timer = setInterval(() => this.purgeExpired(), purgeEveryMs);
    this.timer.unref();
  }

  private expiry(sess: session.SessionData): number {
    const e = sess.cookie?.expires;
    return e ? new Date(e).getTime() : Date.now() + DAY;
  }

  purgeExpired(): number {
    return this.stmts.purge.run(Date.now()).changes;
  }

  /** Signs a user out everywhere (deactivated or deleted accounts). */
  destroyUserSessions(userId: number): void {
    this.stmts.destroyForUser.run(String(userId));
  }

  override get(sid: string, cb: (err: unknown, session?: session.SessionData | null) => void): void {
    try {
      const row = this.stmts.get.get(sid, Date.now());
      cb(null, row ? (JSON.parse(row.sess) as session.SessionData) : null);
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
  }
}

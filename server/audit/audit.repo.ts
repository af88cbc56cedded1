import type { Kysely } from 'kysely';
import type { AuditEntry } from '../../common/security-types.js';
import type { AuditLogRow, DB, NewAuditLogRow } from '../db/schema.js';

export interface AuditQuery {
  limit: number;
  offset: number;
  /** A username (any case). */
  user?: string;
  action?: string;
}

const parse = <T>(json: string | null, fallback: T): T => {
  if (json === null) return fallback;
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
};

export const auditRowToEntry = (r: AuditLogRow): AuditEntry => ({
  id: r.id,
  at: r.at,
  user_id: r.user_id,
  username: r.username,
  action: r.action,
  ids: parse<string[]>(r.ids, []),
  detail: parse<Record<string, unknown> | null>(r.detail, null),
  address: r.address,
});

/** The audit_log table: written many rows per statement, read newest first. */
export class AuditRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async insertMany(rows: NewAuditLogRow[]): Promise<void> {
    if (rows.length) await this.db.insertInto('audit_log').values(rows).execute();
  }

  private filtered(q: Omit<AuditQuery, 'limit' | 'offset'>) {
    let s = this.db.selectFrom('audit_log');
    if (q.user) s = s.where((eb) => eb(eb.fn('lower', ['username']), '=', q.user!.toLowerCase()));
    if (q.action) s = s.where('action', '=', q.action);
    return s;
  }

  async list(q: AuditQuery): Promise<{ entries: AuditEntry[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.filtered(q).selectAll().orderBy('id', 'desc').limit(q.limit).offset(q.offset).execute(),
      this.filtered(q).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { entries: rows.map(auditRowToEntry), total: Number(count.n) };
  }

  async actions(): Promise<string[]> {
    const rows = await this.db.selectFrom('audit_log').select('action').distinct().orderBy('action').execute();
    return rows.map((r) => r.action);
  }

  /** Removes entries recorded before `iso`; the number removed. */
  async pruneBefore(iso: string): Promise<number> {
    const r = await this.db.deleteFrom('audit_log').where('at', '<', iso).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}

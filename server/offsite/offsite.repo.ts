import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, OffsiteObjectsTable } from '../db/schema.js';
import type { Candidate } from './eviction-rules.js';

export type OffsiteRow = Selectable<OffsiteObjectsTable>;

/** A file under DATA_DIR as the copy sees it. */
export interface LocalFile {
  rel: string;
  size: number;
  mtimeMs: number;
}

/** Every query of the off-site copy: its queue, what changed, its notes. */
export class OffsiteRepo {
  constructor(private readonly db: Kysely<DB>) {}

  dirty(limit: number): Promise<{ owner: string; at: number }[]> {
    return this.db.selectFrom('offsite_dirty').select(['owner', 'at']).orderBy('at').limit(limit).execute();
  }

  /** Whether a change is still to be looked at (until then the copy is behind, whatever the rows say). */
  async anyDirty(): Promise<boolean> {
    return (await this.db.selectFrom('offsite_dirty').select('owner').limit(1).executeTakeFirst()) !== undefined;
  }

  /** Done with an owner, unless it changed again while it was looked at. */
  async clean(owner: string, at: number): Promise<void> {
    await this.db.deleteFrom('offsite_dirty').where('owner', '=', owner).where('at', '<=', at).execute();
  }

  /** Everything is looked at again (a start, a new bucket). */
  async markAllDirty(): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await sql`INSERT OR IGNORE INTO offsite_dirty (owner, at) SELECT 'photo:' || id, 0 FROM photos`.execute(tx);
      await sql`INSERT OR IGNORE INTO offsite_dirty (owner, at) SELECT 'guestbook:' || id, 0 FROM guestbook`.execute(tx);
      await sql`INSERT OR IGNORE INTO offsite_dirty (owner, at) SELECT DISTINCT owner, 0 FROM offsite_objects`.execute(tx);
      await sql`INSERT OR IGNORE INTO offsite_dirty (owner, at) VALUES ('cover', 0)`.execute(tx);
    });
  }

  ofOwner(owner: string): Promise<OffsiteRow[]> {
    return this.db.selectFrom('offsite_objects').selectAll().where('owner', '=', owner).execute();
  }

  get(rel: string): Promise<OffsiteRow | undefined> {
    return this.db.selectFrom('offsite_objects').selectAll().where('rel', '=', rel).executeTakeFirst();
  }

  /** Brings an owner's rows in line with its files in one transaction. */
  async apply(owner: string, upserts: LocalFile[], toDelete: string[], now: number): Promise<void> {
    if (!upserts.length && !toDelete.length) return;
    await this.db.transaction().execute(async (tx) => {
      for (const f of upserts) {
        await tx
          .insertInto('offsite_objects')
          .values({ rel: f.rel, owner, size: f.size, mtime_ms: Math.round(f.mtimeMs), sha256: null, state: 'pending', next_at: now, upload_id: null, parts: null, copied_at: null, error: null })
          .onConflict((oc) =>
            oc.column('rel').doUpdateSet({ owner, size: f.size, mtime_ms: Math.round(f.mtimeMs), sha256: null, state: 'pending', tries: 0, next_at: now, copied_at: null, error: null, evicted: 0 }),
          )
          .execute();
      }
      if (toDelete.length)
        await tx.updateTable('offsite_objects').set({ state: 'deleting', tries: 0, next_at: now, error: null }).where('rel', 'in', toDelete).execute();
    });
  }

  due(now: number, limit: number): Promise<OffsiteRow[]> {
    return this.db
      .selectFrom('offsite_objects')
      .selectAll()
      .where('state', '!=', 'copied')
      .where('next_at', '<=', now)
      // Deletions first (they are quick and a guest asked for them), then the oldest wait.
      .orderBy(sql`state = 'deleting'`, 'desc')
      .orderBy('next_at')
      .limit(limit)
      .execute();
  }

  nextDue(): Promise<number | undefined> {
    return this.db
      .selectFrom('offsite_objects')
      .select((eb) => eb.fn.min('next_at').as('n'))
      .where('state', '!=', 'copied')
      .executeTakeFirst()
      .then((r) => (r?.n == null ? undefined : Number(r.n)));
  }

  async update(rel: string, set: Partial<Omit<OffsiteRow, 'rel'>>): Promise<void> {
    await this.db.updateTable('offsite_objects').set(set).where('rel', '=', rel).execute();
  }

  /** Copied, unless the row changed (a newer file, a deletion) while the copy ran. */
  async markCopied(rel: string, expect: { size: number; mtime_ms: number }, sha256: string, at: string): Promise<boolean> {
    const r = await this.db
      .updateTable('offsite_objects')
      .set({ state: 'copied', sha256, copied_at: at, tries: 0, error: null, upload_id: null, parts: null })
      .where('rel', '=', rel)
      .where('state', '=', 'pending')
      .where('size', '=', expect.size)
      .where('mtime_ms', '=', expect.mtime_ms)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async removeDeleted(rel: string): Promise<boolean> {
    const r = await this.db.deleteFrom('offsite_objects').where('rel', '=', rel).where('state', '=', 'deleting').executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  /**
   * A new bucket: nothing copied so far is there. Originals the local disk gave up stay recorded:
   * the old bucket is the only place that holds them, and forgetting them would lose them.
   */
  async forgetAll(): Promise<void> {
    await this.db.deleteFrom('offsite_objects').where('evicted', '=', 0).execute();
  }

  /** Originals kept only in the bucket (the local disk gave them up). */
  async evictedCount(): Promise<number> {
    const r = await this.db.selectFrom('offsite_objects').select((eb) => eb.fn.countAll<number>().as('n')).where('evicted', '=', 1).executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  copiedRels(): Promise<string[]> {
    return this.db.selectFrom('offsite_objects').select('rel').where('state', '=', 'copied').execute().then((rows) => rows.map((r) => r.rel));
  }

  async totals(): Promise<{ files_total: number; files_copied: number; bytes_total: number; bytes_copied: number; last_copied_at: string | null }> {
    const r = await this.db
      .selectFrom('offsite_objects')
      .select([
        sql<number>`COUNT(*)`.as('files_total'),
        sql<number>`COALESCE(SUM(state = 'copied'), 0)`.as('files_copied'),
        sql<number>`COALESCE(SUM(size), 0)`.as('bytes_total'),
        sql<number>`COALESCE(SUM(CASE WHEN state = 'copied' THEN size ELSE 0 END), 0)`.as('bytes_copied'),
        sql<string | null>`MAX(copied_at)`.as('last_copied_at'),
      ])
      .where('state', '!=', 'deleting')
      .executeTakeFirstOrThrow();
    return {
      files_total: Number(r.files_total),
      files_copied: Number(r.files_copied),
      bytes_total: Number(r.bytes_total),
      bytes_copied: Number(r.bytes_copied),
      last_copied_at: r.last_copied_at,
    };
  }

  async meta(key: string): Promise<string | undefined> {
    return (await this.db.selectFrom('offsite_meta').select('value').where('key', '=', key).executeTakeFirst())?.value;
  }

  async setMeta(key: string, value: string): Promise<void> {
    await this.db.insertInto('offsite_meta').values({ key, value }).onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
  }

  /** Photos' originals the bucket confirmed and still on disk, oldest first, after `after` (eviction's order). */
  async evictionCandidates(after: { ts: string; id: string } | null, limit: number): Promise<Candidate[]> {
    let q = this.db
      .selectFrom('offsite_objects as o')
      .innerJoin('photos as p', 'p.stored_path', 'o.rel')
      .select(['o.rel', 'o.size', 'o.mtime_ms', 'o.sha256', 'p.id', 'p.upload_timestamp'])
      .where('o.state', '=', 'copied')
      .where('o.evicted', '=', 0)
      .where('o.sha256', 'is not', null)
      .where(sql<boolean>`o.owner = 'photo:' || p.id`);
    if (after) {
      const { ts, id } = after;
      q = q.where((eb) => eb.or([eb('p.upload_timestamp', '>', ts), eb.and([eb('p.upload_timestamp', '=', ts), eb('p.id', '>', id)])]));
    }
    return (await q.orderBy('p.upload_timestamp').orderBy('p.id').limit(limit).execute()) as Candidate[];
  }
}

/** The stored paths (relative to DATA_DIR) a photo or a guestbook entry names; null when it is gone. */
export async function ownerPaths(db: Kysely<DB>, owner: string): Promise<{ paths: string[]; original: string | null; sha256: string | null } | null> {
  const [kind, id] = owner.split(/:(.*)/s);
  if (kind === 'photo') {
    const r = await db.selectFrom('photos').select(['stored_path', 'thumb_path', 'display_path', 'sha256']).where('id', '=', id).executeTakeFirst();
    if (!r) return null;
    return { paths: [r.stored_path, r.thumb_path, r.display_path].filter((p): p is string => !!p), original: r.stored_path, sha256: r.sha256 };
  }
  if (kind === 'guestbook') {
    const r = await db.selectFrom('guestbook').select(['audio_path', 'web_audio_path']).where('id', '=', id).executeTakeFirst();
    if (!r) return null;
    return { paths: [r.audio_path, r.web_audio_path].filter((p): p is string => !!p), original: null, sha256: null };
  }
  return { paths: [], original: null, sha256: null };
}

import { sql, type Kysely } from 'kysely';
import type { DB, NewPhotoRow, PhotoRow, PhotoUpdate } from '../db/schema.js';

/** Which photos an admin list shows: all, visible only, or hidden only (the approval queue: without those set aside by keep-best). */
export type AdminFilter = 'all' | 'visible' | 'hidden';

/** Narrowing of an admin list: one guest's photos (by the name they gave), flagged ones, one group of similar shots. */
export interface AdminNarrowing {
  uploader?: string;
  flagged?: boolean;
  similarGroup?: string;
}

export interface CameraCount {
  camera_make: string | null;
  camera_model: string | null;
  n: number;
}

/**
 * The photos table. This is its only writer: uploads insert through insertWith,
 * processing fills rows in through updateMedia/markError, moderation changes visibility and deletes.
 * Other modules construct their own `new PhotosRepo(db)`. The public gallery's hot read path is
 * gallery.repo.ts.
 */
export class PhotosRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** Stores a new photo; false (and nothing stored) when one with the same sha256 already exists. */
  async insertUnlessDuplicate(row: NewPhotoRow): Promise<boolean> {
    const r = await this.db
      .insertInto('photos')
      .values(row)
      .onConflict((oc) => oc.column('sha256').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  /**
   * A new photo together with the rows that must exist with it (its activity, its processing
   * job), written by their own repositories through `alongside` in the same transaction: a crash
   * leaves all of them or none. Only SQL runs inside, never file work, so the connection is
   * held for microseconds. False (and nothing stored) for a duplicate sha256.
   */
  insertWith(row: NewPhotoRow, alongside: (tx: Kysely<DB>) => Promise<void>): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const inserted = await new PhotosRepo(tx).insertUnlessDuplicate(row);
      if (inserted) await alongside(tx);
      return inserted;
    });
  }

  get(id: string): Promise<PhotoRow | undefined> {
    return this.db.selectFrom('photos').selectAll().where('id', '=', id).executeTakeFirst();
  }

  byIds(ids: readonly string[]): Promise<PhotoRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db.selectFrom('photos').selectAll().where('id', 'in', ids).execute();
  }

  status(id: string): Promise<{ status: PhotoRow['status'] } | undefined> {
    return this.db.selectFrom('photos').select('status').where('id', '=', id).executeTakeFirst();
  }

  /** What processing learned or made (metadata, derivative paths, status). */
  async updateMedia(id: string, patch: PhotoUpdate): Promise<void> {
    await this.db.updateTable('photos').set(patch).where('id', '=', id).execute();
  }

  async markError(id: string, message: string): Promise<void> {
    await this.updateMedia(id, { status: 'error', processing_error: message.slice(0, 500) });
  }

  private filtered(filter: AdminFilter, n: AdminNarrowing = {}) {
    let q = this.db.selectFrom('photos');
    if (n.uploader !== undefined) q = q.where('uploader_name', '=', n.uploader);
    if (n.flagged) q = q.where('quality_flags', '>', '');
    if (n.similarGroup !== undefined) q = q.where('similar_group', '=', n.similarGroup);
    if (filter === 'visible') q = q.where('is_visible', '=', 1);
    if (filter === 'hidden') q = q.where('is_visible', '=', 0).where('set_aside', '=', 0);
    return q;
  }

  listAdmin(filter: AdminFilter, limit: number, offset: number, n?: AdminNarrowing): Promise<PhotoRow[]> {
    return this.filtered(filter, n)
      .selectAll()
      .orderBy('upload_timestamp', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  async countAdmin(filter: AdminFilter, n?: AdminNarrowing): Promise<number> {
    const r = await this.filtered(filter, n)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Processed images without similar-shot and quality measures (stored before they existed), oldest first. */
  unmeasuredIds(limit?: number): Promise<string[]> {
    return this.db
      .selectFrom('photos')
      .select('id')
      .where('phash', 'is', null)
      .where('status', '=', 'complete')
      .where('display_path', 'is not', null)
      .where('content_type', 'like', 'image/%')
      .orderBy('upload_timestamp')
      .$if(limit !== undefined, (q) => q.limit(limit!))
      .execute()
      .then((rows) => rows.map((r) => r.id));
  }

  /** Every photo id, oldest upload first. */
  allIds(): Promise<string[]> {
    return this.db
      .selectFrom('photos')
      .select('id')
      .orderBy('upload_timestamp')
      .execute()
      .then((rows) => rows.map((r) => r.id));
  }

  /** Sets visibility on many photos; returns the rows whose visibility actually changed. */
  async setVisibleMany(ids: readonly string[], visible: boolean, approvedAt: string): Promise<PhotoRow[]> {
    if (!ids.length) return [];
    return this.db
      .updateTable('photos')
      .set(visible ? { is_visible: 1, set_aside: 0, approved_at: sql<string>`coalesce(approved_at, ${approvedAt})` } : { is_visible: 0 })
      .where('id', 'in', ids)
      .where('is_visible', '=', visible ? 0 : 1)
      .returningAll()
      .execute();
  }

  /** Hidden by "Keep this, hide the rest": out of the approval queue until shown again. */
  async setAside(ids: readonly string[]): Promise<void> {
    if (ids.length) await this.db.updateTable('photos').set({ set_aside: 1 }).where('id', 'in', ids).where('is_visible', '=', 0).execute();
  }

  async setHighlighted(id: string, on: boolean): Promise<PhotoRow | undefined> {
    return this.db.updateTable('photos').set({ highlighted: on ? 1 : 0 }).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /** Moves a photo's heart count by `delta` (its own statement: see migration 0009); the new count. */
  async addHearts(id: string, delta: number): Promise<number> {
    const r = await this.db
      .updateTable('photos')
      .set((eb) => ({ hearts: sql<number>`max(${eb.ref('hearts')} + ${delta}, 0)` }))
      .where('id', '=', id)
      .returning('hearts')
      .executeTakeFirst();
    return r?.hearts ?? 0;
  }

  /** How many photos each of these similar-shot groups holds. */
  async similarCounts(groups: readonly string[]): Promise<Map<string, number>> {
    if (!groups.length) return new Map();
    const rows = await this.db
      .selectFrom('photos')
      .select((eb) => ['similar_group', eb.fn.countAll<number>().as('n')])
      .where('similar_group', 'in', groups)
      .groupBy('similar_group')
      .execute();
    return new Map(rows.map((r) => [r.similar_group!, Number(r.n)]));
  }

  /** Puts these photos in one group (null: in none); only the group column is written (see migration 0009). */
  async setSimilarGroup(ids: readonly string[], group: string | null): Promise<void> {
    if (!ids.length) return;
    await this.db.updateTable('photos').set({ similar_group: group }).where('id', 'in', ids).where('similar_group', 'is not', group).execute();
  }

  /**
   * Deletes one photo (with `guestId`: only if that guest sent it); returns the row deleted. Its
   * original is noted in removed_originals in the same transaction, so that until the file is
   * gone (forgetRemoved) no start-up sweep takes it for a lost upload.
   */
  delete(id: string, guestId?: string): Promise<PhotoRow | undefined> {
    const within = async (tx: Kysely<DB>) => {
      let q = tx.deleteFrom('photos').where('id', '=', id);
      if (guestId !== undefined) q = q.where('guest_id', '=', guestId);
      const row = await q.returningAll().executeTakeFirst();
      if (row) {
        await tx
          .insertInto('removed_originals')
          .values({ stored_path: row.stored_path, photo_id: row.id, removed_at: new Date().toISOString() })
          .onConflict((oc) => oc.column('stored_path').doNothing())
          .execute();
      }
      return row;
    };
    return this.db.isTransaction ? within(this.db) : this.db.transaction().execute(within);
  }

  /**
   * A guest takes back a photo of theirs. Sent by them and owned by nobody else: deleted as
   * `delete` does. Sent by them and also owned by guests whose upload of the same bytes was a
   * duplicate: it stays, as the earliest of those guests' photo. Owned by them through such a
   * duplicate: it stays its sender's. undefined: not theirs (nothing changes).
   */
  takeBack(id: string, guestId: string): Promise<{ row: PhotoRow; deleted: boolean } | undefined> {
    return this.db.transaction().execute(async (tx) => {
      const row = await tx.selectFrom('photos').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) return undefined;
      if (row.guest_id !== guestId) {
        const r = await tx.deleteFrom('photo_owners').where('photo_id', '=', id).where('guest_id', '=', guestId).executeTakeFirst();
        return Number(r.numDeletedRows) > 0 ? { row, deleted: false } : undefined;
      }
      const next = await tx
        .selectFrom('photo_owners')
        .selectAll()
        .where('photo_id', '=', id)
        .orderBy('added_at')
        .orderBy('guest_id')
        .executeTakeFirst();
      if (!next) {
        const gone = await new PhotosRepo(tx).delete(id, guestId);
        return gone ? { row: gone, deleted: true } : undefined;
      }
      await tx.updateTable('photos').set({ guest_id: next.guest_id, uploader_name: next.uploader_name }).where('id', '=', id).execute();
      await tx.deleteFrom('photo_owners').where('photo_id', '=', id).where('guest_id', '=', next.guest_id).execute();
      return { row, deleted: false };
    });
  }

  /**
   * The guest whose upload of this photo's bytes was answered "duplicate" owns it too (their
   * name as they gave it then). Its own sender is not added; false when the photo is gone.
   */
  async addOwner(photoId: string, guestId: string, uploaderName: string | null): Promise<boolean> {
    const r = await sql`
      INSERT INTO photo_owners (photo_id, guest_id, uploader_name, added_at)
      SELECT id, ${guestId}, ${uploaderName}, ${new Date().toISOString()} FROM photos
      WHERE id = ${photoId} AND (guest_id IS NULL OR guest_id <> ${guestId})
      ON CONFLICT (photo_id, guest_id) DO UPDATE SET uploader_name = excluded.uploader_name`.execute(this.db);
    if (Number(r.numAffectedRows ?? 0n) > 0) return true;
    return (await this.get(photoId)) !== undefined;
  }

  /** Whether the guest owns the photo through an upload of its bytes that was a duplicate. */
  async ownedAlsoBy(photoId: string, guestId: string): Promise<boolean> {
    const r = await this.db.selectFrom('photo_owners').select('photo_id').where('photo_id', '=', photoId).where('guest_id', '=', guestId).executeTakeFirst();
    return r !== undefined;
  }

  /** Originals of deleted photos whose files may still be there. */
  removedOriginals(): Promise<{ stored_path: string; photo_id: string }[]> {
    return this.db.selectFrom('removed_originals').select(['stored_path', 'photo_id']).execute();
  }

  /** A deleted photo's files are gone: its note goes too. */
  async forgetRemoved(storedPath: string): Promise<void> {
    await this.db.deleteFrom('removed_originals').where('stored_path', '=', storedPath).execute();
  }

  /** Totals over every stored photo (for /api/stats and the dashboard). */
  async totals(): Promise<{ total: number; visible: number; videos: number; bytes: number }> {
    const r = await this.db
      .selectFrom('photos')
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        eb.fn.coalesce(eb.fn.sum<number>('is_visible'), sql<number>`0`).as('visible'),
        eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('content_type', 'like', 'video/%').then(1).else(0).end()), sql<number>`0`).as('videos'),
        eb.fn.coalesce(eb.fn.sum<number>('file_size'), sql<number>`0`).as('bytes'),
      ])
      .executeTakeFirstOrThrow();
    return { total: Number(r.total), visible: Number(r.visible), videos: Number(r.videos), bytes: Number(r.bytes) };
  }

  /** `visibleOnly` for the public: a camera name is EXIF text a guest chose, shown only once approved. */
  cameraCounts(visibleOnly = false): Promise<CameraCount[]> {
    return this.db
      .selectFrom('photos')
      .select((eb) => ['camera_make', 'camera_model', eb.fn.countAll<number>().as('n')])
      .where((eb) => eb.or([eb('camera_make', 'is not', null), eb('camera_model', 'is not', null)]))
      .$if(visibleOnly, (q) => q.where('is_visible', '=', 1))
      .groupBy(['camera_make', 'camera_model'])
      .execute();
  }
}

import { sql, type Kysely } from 'kysely';
import type { DB, UploadRow } from '../db/schema.js';

/** SQL for partial uploads (the `uploads` table, written only here) and the duplicate lookup by SHA-256. */
export class UploadsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  findByKey(key: string): Promise<UploadRow | undefined> {
    return this.db.selectFrom('uploads').selectAll().where('upload_key', '=', key).executeTakeFirst();
  }

  /** Creates the row unless another request for the same key got there first; returns the row that won. */
  async create(row: {
    id: string;
    upload_key: string;
    session_id: string;
    filename: string;
    total_size: number;
    temp_path: string;
    client_address: string | null;
  }): Promise<UploadRow> {
    const now = Date.now();
    await this.db
      .insertInto('uploads')
      .values({ ...row, received_bytes: 0, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('upload_key').doNothing())
      .execute();
    return (await this.findByKey(row.upload_key))!;
  }

  /** Unfinished uploads of one upload session, and of one client address. */
  async countOpen(sessionId: string, clientAddress: string): Promise<{ session: number; client: number }> {
    const count = (column: 'session_id' | 'client_address', value: string) =>
      this.db
        .selectFrom('uploads')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(column, '=', value)
        .where('status', '=', 'receiving')
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));
    const [session, client] = await Promise.all([count('session_id', sessionId), count('client_address', clientAddress)]);
    return { session, client };
  }

  /** Many partial uploads' offsets in one statement; a row completed or dropped meanwhile is left alone. */
  async setReceivedMany(offsets: [id: string, receivedBytes: number][]): Promise<void> {
    if (!offsets.length) return;
    const byId = sql.join(offsets.map(([id, n]) => sql`WHEN ${id} THEN ${n}`), sql` `);
    await sql`
      UPDATE uploads SET received_bytes = CASE id ${byId} END, updated_at = ${Date.now()}
      WHERE status = 'receiving' AND id IN (${sql.join(offsets.map(([id]) => id))})`.execute(this.db);
  }

  async markComplete(id: string, photoId: string, duplicate: boolean): Promise<void> {
    await this.db
      .updateTable('uploads')
      .set({ status: 'complete', photo_id: photoId, duplicate: duplicate ? 1 : 0, updated_at: Date.now() })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('uploads').where('id', '=', id).execute();
  }

  /** Rows untouched since `before` (ms): partial ones whose files must go, and completed ones. */
  staleRows(before: number): Promise<UploadRow[]> {
    return this.db.selectFrom('uploads').selectAll().where('updated_at', '<', before).execute();
  }

  allTempPaths(): Promise<string[]> {
    return this.db.selectFrom('uploads').select('temp_path').where('status', '=', 'receiving').execute().then((r) => r.map((x) => x.temp_path));
  }

  /** The chunked upload with this row id, while it is still receiving. */
  receivingById(id: string): Promise<UploadRow | undefined> {
    return this.db.selectFrom('uploads').selectAll().where('id', '=', id).where('status', '=', 'receiving').executeTakeFirst();
  }

  /** A read of photos: is this id taken? */
  photoExists(id: string): Promise<boolean> {
    return this.db.selectFrom('photos').select('id').where('id', '=', id).executeTakeFirst().then((r) => r !== undefined);
  }

  /**
   * A read of photos: every stored original's path (relative to DATA_DIR), to find files nobody
   * owns; with the originals of deleted photos whose files may still be there (never adopted).
   */
  storedPaths(): Promise<Set<string>> {
    return this.db
      .selectFrom('photos')
      .select('stored_path')
      .union(this.db.selectFrom('removed_originals').select('stored_path'))
      .execute()
      .then((r) => new Set(r.map((x) => x.stored_path)));
  }

  /** A read of photos and jobs: photos never processed that have no job at all (a crash between the two, before they were one transaction). */
  photosWithoutJobs(): Promise<string[]> {
    return this.db
      .selectFrom('photos')
      .select('id')
      .where('status', '=', 'processing')
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('jobs').select('jobs.id').whereRef('jobs.photo_id', '=', 'photos.id'))))
      .execute()
      .then((r) => r.map((x) => x.id));
  }

  /** A read of photos: the id of the photo with these bytes, if one is stored (photos.repo writes them). */
  photoIdBySha(sha256: string): Promise<string | undefined> {
    return this.db.selectFrom('photos').select('id').where('sha256', '=', sha256).executeTakeFirst().then((r) => r?.id);
  }
}

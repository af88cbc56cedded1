import type { Kysely } from 'kysely';
import type { DB, UploadRow } from '../db/schema.js';

/** SQL for partial uploads (the `uploads` table, written only here) and the duplicate lookup by SHA-256. */
export class UploadsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  findByKey(key: string): Promise<UploadRow | undefined> {
    return this.db.selectFrom('uploads').selectAll().where('upload_key', '=', key).executeTakeFirst();
  }

  /** Creates the row unless another request for the same key got there first; returns the row that won. */
  async create(row: { id: string; upload_key: string; session_id: string; filename: string; total_size: number; temp_path: string }): Promise<UploadRow> {
    const now = Date.now();
    await this.db
      .insertInto('uploads')
      .values({ ...row, received_bytes: 0, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('upload_key').doNothing())
      .execute();
    return (await this.findByKey(row.upload_key))!;
  }

  async setReceived(id: string, receivedBytes: number): Promise<void> {
    await this.db.updateTable('uploads').set({ received_bytes: receivedBytes, updated_at: Date.now() }).where('id', '=', id).execute();
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

  /** A read of photos: the id of the photo with these bytes, if one is stored (photos.repo writes them). */
  photoIdBySha(sha256: string): Promise<string | undefined> {
    return this.db.selectFrom('photos').select('id').where('sha256', '=', sha256).executeTakeFirst().then((r) => r?.id);
  }
}

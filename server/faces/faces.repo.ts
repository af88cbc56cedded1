import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { GALLERY_COLUMNS, type GalleryRow } from '../photos/photos.mappers.js';
import { LISTED } from '../photos/gallery.repo.js';
import type { Box } from './engine/boxes.js';

export type MatchRow = GalleryRow & { distance: number };

/** A photo as the scan reads it: which file to look at, and whether guests may see it. */
export interface ScanPhoto {
  id: string;
  content_type: string;
  stored_path: string;
  display_path: string | null;
  status: string;
  is_visible: number;
}

const codeToBlob = (code: Float32Array) => new Uint8Array(code.buffer.slice(code.byteOffset, code.byteOffset + code.byteLength));
const blobToCode = (blob: Uint8Array) => new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));

/** Every SQL statement of the face search (it writes face_guests, face_matches and face_boxes). */
export class FacesRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** A new code replaces the guest's old one, and its matches go with it. */
  async saveGuest(guestId: string, code: Float32Array): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('face_guests').where('guest_id', '=', guestId).execute();
      await tx.insertInto('face_guests').values({ guest_id: guestId, code: codeToBlob(code), created_at: new Date().toISOString(), scan_complete: 0 }).execute();
    });
  }

  async guest(guestId: string): Promise<{ code: Float32Array; complete: boolean } | undefined> {
    const row = await this.db.selectFrom('face_guests').select(['code', 'scan_complete']).where('guest_id', '=', guestId).executeTakeFirst();
    return row && { code: blobToCode(row.code), complete: row.scan_complete === 1 };
  }

  async guests(): Promise<{ guestId: string; code: Float32Array; complete: boolean }[]> {
    const rows = await this.db.selectFrom('face_guests').select(['guest_id', 'code', 'scan_complete']).execute();
    return rows.map((r) => ({ guestId: r.guest_id, code: blobToCode(r.code), complete: r.scan_complete === 1 }));
  }

  async markComplete(guestId: string): Promise<void> {
    await this.db.updateTable('face_guests').set({ scan_complete: 1 }).where('guest_id', '=', guestId).execute();
  }

  /** Deletes the guest's code; their matches go with it (ON DELETE CASCADE). */
  async deleteGuest(guestId: string): Promise<void> {
    await this.db.deleteFrom('face_guests').where('guest_id', '=', guestId).execute();
  }

  async deleteAll(): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('face_matches').execute();
      await tx.deleteFrom('face_guests').execute();
      await tx.deleteFrom('face_boxes').execute();
    });
  }

  /** Stores matches of guests and photos that still exist (a guest may forget, a photo go, meanwhile). */
  async saveMatches(rows: { guestId: string; photoId: string; distance: number }[]): Promise<void> {
    for (const r of rows) {
      await sql`INSERT INTO face_matches (guest_id, photo_id, distance)
        SELECT ${r.guestId}, ${r.photoId}, ${r.distance}
        WHERE EXISTS (SELECT 1 FROM face_guests WHERE guest_id = ${r.guestId}) AND EXISTS (SELECT 1 FROM photos WHERE id = ${r.photoId})
        ON CONFLICT (guest_id, photo_id) DO UPDATE SET distance = excluded.distance`.execute(this.db);
    }
  }

  /** The guest's matches among the photos guests may see, best first. */
  matches(guestId: string): Promise<MatchRow[]> {
    return this.db
      .selectFrom('face_matches as m')
      .innerJoin('photos', 'photos.id', 'm.photo_id')
      .select([...GALLERY_COLUMNS.map((c) => `photos.${c}` as const), 'm.distance'])
      .where('m.guest_id', '=', guestId)
      .where(sql<boolean>`${sql.raw(LISTED.replace(/\b(is_visible|display_path|content_type)\b/g, 'photos.$1'))}`)
      .orderBy('m.distance')
      .orderBy('photos.id')
      .execute() as Promise<MatchRow[]>;
  }

  async boxes(photoId: string, source: string): Promise<Box[] | null> {
    const row = await this.db.selectFrom('face_boxes').select('boxes').where('photo_id', '=', photoId).where('source', '=', source).executeTakeFirst();
    if (!row) return null;
    return (JSON.parse(row.boxes) as number[][]).map(([x, y, width, height]) => ({ x, y, width, height }));
  }

  async saveBoxes(photoId: string, source: string, boxes: Box[]): Promise<void> {
    const json = JSON.stringify(boxes.map((b) => [b.x, b.y, b.width, b.height]));
    await this.db
      .insertInto('face_boxes')
      .values({ photo_id: photoId, source, boxes: json })
      .onConflict((oc) => oc.column('photo_id').doUpdateSet({ source, boxes: json }))
      .execute();
  }

  /**
   * Visible still images in the order a guest's scan takes them: their own uploads first, then
   * those whose face boxes are known (a few hundredths of a second each instead of seconds: the
   * first matches come at once), each newest first.
   */
  async scanOrder(guestId: string): Promise<string[]> {
    const rows = await this.visibleImages()
      .select('photos.id')
      .orderBy(sql`CASE WHEN photos.guest_id = ${guestId} THEN 0 ELSE 1 END`)
      .orderBy(sql`CASE WHEN b.photo_id IS NULL THEN 1 ELSE 0 END`)
      .orderBy('photos.upload_timestamp', 'desc')
      .orderBy('photos.id', 'desc')
      .execute();
    return rows.map((r) => r.id);
  }

  /** Visible still images whose face boxes are not known for their current file, newest first. */
  async unmeasured(): Promise<string[]> {
    const rows = await this.visibleImages()
      .select('photos.id')
      .where('b.photo_id', 'is', null)
      .orderBy('photos.upload_timestamp', 'desc')
      .orderBy('photos.id', 'desc')
      .execute();
    return rows.map((r) => r.id);
  }

  /** Visible still images, each with its face boxes' row when they were measured on the file a scan reads now. */
  private visibleImages() {
    return this.db
      .selectFrom('photos')
      .leftJoin('face_boxes as b', (j) => j.onRef('b.photo_id', '=', 'photos.id').on(sql<boolean>`b.source = COALESCE(photos.display_path, photos.stored_path)`))
      .where('photos.is_visible', '=', 1)
      .where('photos.content_type', 'like', 'image/%');
  }

  scanPhoto(id: string): Promise<ScanPhoto | undefined> {
    return this.db.selectFrom('photos').select(['id', 'content_type', 'stored_path', 'display_path', 'status', 'is_visible']).where('id', '=', id).executeTakeFirst();
  }

  async counts(): Promise<{ guests: number; matches: number }> {
    const [g, m] = await Promise.all([
      this.db.selectFrom('face_guests').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      this.db.selectFrom('face_matches').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { guests: Number(g.n), matches: Number(m.n) };
  }
}

import type { Kysely } from 'kysely';
import type { AdminPhoto } from '../../common/api-types.js';
import type { DB } from '../db/schema.js';
import type { ExportMessage } from './guestbook-keepsake.js';

/** The columns an export needs; thousands of these are never held at once (see the iterators). */
export type ExportPhoto = Pick<
  AdminPhoto,
  'id' | 'original_filename' | 'content_type' | 'file_size' | 'upload_timestamp' | 'date_taken' | 'camera_make' | 'camera_model' | 'width' | 'height' | 'is_visible' | 'uploader_name'
> & { stored_path: string };

const COLUMNS = [
  'id',
  'original_filename',
  'stored_path',
  'content_type',
  'file_size',
  'upload_timestamp',
  'date_taken',
  'camera_make',
  'camera_model',
  'width',
  'height',
  'is_visible',
  'uploader_name',
] as const;

type Row = Omit<ExportPhoto, 'is_visible'> & { is_visible: number };

export const exportRowToPhoto = (r: Row): ExportPhoto => ({ ...r, is_visible: r.is_visible === 1 });

export const PAGE_SIZE = 200;

export class ExportRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Every photo (or only visible ones) in upload order, one page at a time: keyset paging on
   * (upload_timestamp, id) stays fast deep into the table and tolerates rows added meanwhile.
   */
  async *scan(onlyVisible: boolean, pageSize = PAGE_SIZE): AsyncGenerator<ExportPhoto> {
    let after: { ts: string; id: string } | undefined;
    for (;;) {
      let q = this.db.selectFrom('photos').select(COLUMNS);
      if (onlyVisible) q = q.where('is_visible', '=', 1);
      if (after) {
        const { ts, id } = after;
        q = q.where((eb) => eb.or([eb('upload_timestamp', '>', ts), eb.and([eb('upload_timestamp', '=', ts), eb('id', '>', id)])]));
      }
      const rows = await q.orderBy('upload_timestamp').orderBy('id').limit(pageSize).execute();
      for (const r of rows) yield exportRowToPhoto(r);
      if (rows.length < pageSize) return;
      const last = rows[rows.length - 1];
      after = { ts: last.upload_timestamp, id: last.id };
    }
  }

  /** One visible photo, or undefined (unknown and hidden alike). */
  async visible(id: string): Promise<ExportPhoto | undefined> {
    const r = await this.db.selectFrom('photos').select(COLUMNS).where('id', '=', id).where('is_visible', '=', 1).executeTakeFirst();
    return r && exportRowToPhoto(r);
  }

  /** The named photos in the order given; ids without a row are reported through onMissing. */
  async *byIds(ids: readonly string[], onMissing: (id: string) => void, pageSize = PAGE_SIZE): AsyncGenerator<ExportPhoto> {
    for (let i = 0; i < ids.length; i += pageSize) {
      const chunk = ids.slice(i, i + pageSize);
      const rows = await this.db.selectFrom('photos').select(COLUMNS).where('id', 'in', chunk).execute();
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const id of chunk) {
        const r = byId.get(id);
        if (r) yield exportRowToPhoto(r);
        else onMissing(id);
      }
    }
  }

  /** Visible guestbook messages, oldest first (the keepsake reads like a book), a page at a time. */
  /** The films and photo books that are ready, oldest first. */
  readyKeepsakes(): Promise<{ id: string; kind: 'film' | 'book'; path: string | null; created_at: string; options: string }[]> {
    return this.db.selectFrom('keepsakes').select(['id', 'kind', 'path', 'created_at', 'options']).where('status', '=', 'ready').orderBy('created_at').orderBy('id').execute();
  }

  async *visibleMessages(pageSize = PAGE_SIZE): AsyncGenerator<ExportMessage> {
    let after: { ts: string; id: string } | undefined;
    for (;;) {
      let q = this.db
        .selectFrom('guestbook')
        .select(['id', 'name', 'message', 'created_at', 'duration', 'audio_path', 'audio_type'])
        .where('is_visible', '=', 1);
      if (after) {
        const { ts, id } = after;
        q = q.where((eb) => eb.or([eb('created_at', '>', ts), eb.and([eb('created_at', '=', ts), eb('id', '>', id)])]));
      }
      const rows = await q.orderBy('created_at').orderBy('id').limit(pageSize).execute();
      yield* rows;
      if (rows.length < pageSize) return;
      const last = rows[rows.length - 1];
      after = { ts: last.created_at, id: last.id };
    }
  }
}

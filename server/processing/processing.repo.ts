import type { Kysely } from 'kysely';
import type { DB, PhotoRow, PhotoUpdate } from '../db/schema.js';

/** The photo rows processing reads and fills in. */
export class ProcessingRepo {
  constructor(private readonly db: Kysely<DB>) {}

  get(id: string): Promise<PhotoRow | undefined> {
    return this.db.selectFrom('photos').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async update(id: string, patch: PhotoUpdate): Promise<void> {
    await this.db.updateTable('photos').set(patch).where('id', '=', id).execute();
  }

  async markError(id: string, message: string): Promise<void> {
    await this.update(id, { status: 'error', processing_error: message.slice(0, 500) });
  }
}

import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** The single settings row (id 1), its content kept as JSON text. */
export class SettingsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** The stored JSON, or undefined before the first start seeded it. */
  async read(): Promise<string | undefined> {
    const row = await this.db.selectFrom('settings').select('data').where('id', '=', 1).executeTakeFirst();
    return row?.data;
  }

  /** Stores the JSON unless a row exists; true when it was stored. */
  async insertIfMissing(data: string): Promise<boolean> {
    const r = await this.db
      .insertInto('settings')
      .values({ id: 1, data, updated_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async write(data: string): Promise<void> {
    const updatedAt = new Date().toISOString();
    await this.db
      .insertInto('settings')
      .values({ id: 1, data, updated_at: updatedAt })
      .onConflict((oc) => oc.column('id').doUpdateSet({ data, updated_at: updatedAt }))
      .execute();
  }
}

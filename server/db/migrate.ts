import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as m0001 from './migrations/2026-11-22-0001-initial.js';
import * as m0002 from './migrations/2026-11-22-0002-photos-gallery-order.js';
import * as m0003 from './migrations/2026-11-22-0003-gallery-version.js';

// An explicit map (not a folder scan) so the migrations survive bundling.
// Add new files here in order; never edit one that has shipped.
const MIGRATIONS: Record<string, Migration> = {
  '2026-11-22-0001-initial': m0001,
  '2026-11-22-0002-photos-gallery-order': m0002,
  '2026-11-22-0003-gallery-version': m0003,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

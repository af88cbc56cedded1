import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as m0001 from './migrations/2026-11-22-0001-initial.js';
import * as m0002 from './migrations/2026-11-22-0002-photos-gallery-order.js';
import * as m0003 from './migrations/2026-11-22-0003-gallery-version.js';
import * as m0004 from './migrations/2026-11-22-0004-media-bytes.js';
import * as m0005 from './migrations/2026-11-22-0005-upload-caps.js';
import * as m0007 from './migrations/2026-11-22-0007-listed-media.js';
import * as m0008 from './migrations/2026-11-22-0008-guests.js';
import * as m0009 from './migrations/2026-11-22-0009-activity-message.js';
import * as m0010 from './migrations/2026-11-22-0010-recovered-photos.js';

// An explicit map (not a folder scan) so the migrations survive bundling.
// Add new files here in order; never edit one that has shipped.
const MIGRATIONS: Record<string, Migration> = {
  '2026-11-22-0001-initial': m0001,
  '2026-11-22-0002-photos-gallery-order': m0002,
  '2026-11-22-0003-gallery-version': m0003,
  '2026-11-22-0004-media-bytes': m0004,
  '2026-11-22-0005-upload-caps': m0005,
  '2026-11-22-0007-listed-media': m0007,
  '2026-11-22-0008-guests': m0008,
  '2026-11-22-0009-activity-message': m0009,
  '2026-11-22-0010-recovered-photos': m0010,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

import { CompiledQuery, Kysely, Migrator, SqliteAdapter, SqliteDialect, SqliteDriver, type DatabaseConnection, type Migration, type MigrationProvider } from 'kysely';
import type { Sqlite } from './open.js';
import * as m0001 from './migrations/2026-11-22-0001-initial.js';
import * as m0002 from './migrations/2026-11-22-0002-photos-gallery-order.js';
import * as m0003 from './migrations/2026-11-22-0003-gallery-version.js';
import * as m0004 from './migrations/2026-11-22-0004-media-bytes.js';
import * as m0005 from './migrations/2026-11-22-0005-upload-caps.js';
import * as m0007 from './migrations/2026-11-22-0007-listed-media.js';
import * as m0008 from './migrations/2026-11-22-0008-guests.js';
import * as m0009 from './migrations/2026-11-22-0009-activity-message.js';
import * as m0010 from './migrations/2026-11-22-0010-recovered-photos.js';
import * as m0011 from './migrations/2026-11-22-0011-album.js';
import * as m0026 from './migrations/2026-11-22-0026-faces.js';
import * as m0101 from './migrations/2026-11-23-0001-accounts-audit.js';
import * as m0201 from './migrations/2026-11-26-0001-guestbook-challenges.js';
import * as m0301 from './migrations/2026-12-07-0001-offsite.js';
import * as m0302 from './migrations/2026-12-07-0002-shared-uploads-removals.js';
import * as m0303 from './migrations/2026-12-07-0003-wall-tables.js';
import * as m0304 from './migrations/2026-12-07-0004-camera-booth.js';
import * as m0305 from './migrations/2026-12-07-0005-keepsakes.js';
import * as m0306 from './migrations/2026-12-07-0006-hearts-version.js';

// An explicit map (not a folder scan) so the migrations survive bundling.
// Add new files here in order; never edit one that has shipped.
export const MIGRATIONS: Record<string, Migration> = {
  '2026-11-22-0001-initial': m0001,
  '2026-11-22-0002-photos-gallery-order': m0002,
  '2026-11-22-0003-gallery-version': m0003,
  '2026-11-22-0004-media-bytes': m0004,
  '2026-11-22-0005-upload-caps': m0005,
  '2026-11-22-0007-listed-media': m0007,
  '2026-11-22-0008-guests': m0008,
  '2026-11-22-0009-activity-message': m0009,
  '2026-11-22-0010-recovered-photos': m0010,
  '2026-11-22-0011-album': m0011,
  '2026-11-22-0026-faces': m0026,
  '2026-11-23-0001-accounts-audit': m0101,
  '2026-11-26-0001-guestbook-challenges': m0201,
  '2026-12-07-0001-offsite': m0301,
  '2026-12-07-0002-shared-uploads-removals': m0302,
  '2026-12-07-0003-wall-tables': m0303,
  '2026-12-07-0004-camera-booth': m0304,
  '2026-12-07-0005-keepsakes': m0305,
  '2026-12-07-0006-hearts-version': m0306,
};

/**
 * Kysely's SQLite adapter says SQLite has no transactional DDL, so its Migrator runs each
 * statement on its own: a failure or a kill half-way through an upgrade left added columns
 * behind without the migration recorded, and every later start failed on "duplicate column
 * name". SQLite does roll back CREATE, ALTER and DROP with the transaction, so here the
 * Migrator runs every pending migration and its row in kysely_migration in one transaction:
 * an upgrade lands whole or not at all, and the next start tries it again.
 *
 * Inside that transaction `PRAGMA foreign_keys` cannot change (SQLite ignores it there), and
 * `PRAGMA defer_foreign_keys = ON` does not make a table rebuild safe: it only postpones the
 * checks to the commit, while ON DELETE CASCADE and SET NULL still act at once, and DROP TABLE
 * deletes every row first, so dropping the old copy of a table empties or changes the rows of
 * every table that refers to it. A migration here therefore never drops a table that others
 * refer to: it changes it in place (ALTER TABLE ADD, RENAME or DROP COLUMN), or, when a rebuild
 * cannot be avoided, first copies the referring rows aside and puts them back after the rename.
 */
class AtomicMigrationAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** BEGIN IMMEDIATE: the upgrade takes the write lock at once (waiting busy_timeout for it), never half-way. */
class ImmediateDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class MigrationDialect extends SqliteDialect {
  constructor(private readonly sqlite: Sqlite) {
    super({ database: sqlite });
  }
  override createAdapter() {
    return new AtomicMigrationAdapter();
  }
  override createDriver() {
    return new ImmediateDriver({ database: this.sqlite });
  }
}

/**
 * Brings the database on `sqlite` up to date, all pending migrations in one transaction (see
 * above), on that connection alone: the server runs this before its writer thread starts.
 * Returns the names of the migrations applied.
 */
export async function migrateToLatest(sqlite: Sqlite, migrations: Record<string, Migration> = MIGRATIONS): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  // Features developed side by side reserve their numbers: one that lands after a later-numbered one still runs.
  const migrator = new Migrator({ db: new Kysely<unknown>({ dialect: new MigrationDialect(sqlite) }), provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

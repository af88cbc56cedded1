// A process that upgrades a database with the app's migrations plus one more, slow at the end, so
// a test can kill it (kill -9) in the middle of an upgrade. Usage:
//   node --import tsx test/helpers/migrate-slowly.ts <database file> <rows the last migration writes>
// It prints "slow migration under way" once every real migration has run inside the transaction.
import { sql, type Kysely } from 'kysely';
import { MIGRATIONS, migrateToLatest } from '../../server/db/migrate.js';
import { openSqlite } from '../../server/db/open.js';

const [file, rows] = process.argv.slice(2);

export const SLOW_MIGRATION = '9999-12-31-slow-test-migration';

const slow = {
  async up(db: Kysely<any>): Promise<void> {
    await sql`ALTER TABLE photos ADD COLUMN slow_test TEXT`.execute(db);
    await sql`CREATE TABLE slow_test_rows (n INTEGER PRIMARY KEY, filler TEXT)`.execute(db);
    process.stdout.write('slow migration under way\n');
    // Many pages: more than SQLite's cache holds, so uncommitted pages go to the WAL before the kill.
    await sql`WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < ${Number(rows)})
      INSERT INTO slow_test_rows SELECT n, printf('%0200d', n) FROM c`.execute(db);
  },
};

const applied = await migrateToLatest(openSqlite(file), { ...MIGRATIONS, [SLOW_MIGRATION]: slow });
process.stdout.write(`applied: ${applied.join(', ')}\n`);

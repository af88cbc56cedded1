import {
  CompiledQuery,
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Sqlite } from './open.js';
import type { SqlWriter, WriteResult, WriterHold } from './writer.js';

/**
 * Kysely on two connections to one SQLite file: a statement that only reads runs at once on the
 * main thread's connection (`reader`, set query_only); everything that writes, and every
 * statement of a transaction, goes to the writer thread (db/writer.ts). A read never waits for a
 * transaction under way, even one that awaits file I/O while it holds the writer.
 */
export class RoutedSqliteDialect extends SqliteDialect {
  constructor(
    private readonly reader: Sqlite,
    private readonly writer: SqlWriter,
  ) {
    super({ database: reader });
  }

  override createDriver(): Driver {
    return new RoutedDriver(this.reader, this.writer);
  }
}

class RoutedDriver implements Driver {
  constructor(
    private readonly reader: Sqlite,
    private readonly writer: SqlWriter,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutedConnection(this.reader, this.writer);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as RoutedConnection).begin();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as RoutedConnection).end('commit');
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as RoutedConnection).end('rollback');
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as RoutedConnection).release();
  }

  async destroy(): Promise<void> {
    this.reader.close();
    await this.writer.close();
  }
}

function result(r: WriteResult): QueryResult<unknown> {
  return { rows: r.rows, numAffectedRows: BigInt(r.changes), insertId: BigInt(r.lastInsertRowid) };
}

class RoutedConnection implements DatabaseConnection {
  private held: WriterHold | undefined;

  constructor(
    private readonly reader: Sqlite,
    private readonly writer: SqlWriter,
  ) {}

  async begin(): Promise<void> {
    const held = await this.writer.hold();
    try {
      await held.run('begin');
    } catch (e) {
      held.release();
      throw e;
    }
    this.held = held;
  }

  async end(sql: 'commit' | 'rollback'): Promise<void> {
    const held = this.held;
    this.held = undefined;
    if (!held) {
      // A commit that failed was rolled back below; Kysely then asks for the rollback too.
      if (sql === 'rollback') return;
      throw new Error('commit without a transaction');
    }
    try {
      await held.run(sql);
    } catch (e) {
      // A commit SQLite refused (a full disk, a lock held too long) can leave the transaction open
      // on the one writing connection, and every later write would join it: end it here.
      if (sql === 'commit') await held.run('rollback').catch(() => undefined);
      throw e;
    } finally {
      held.release();
    }
  }

  release(): void {
    this.held?.release();
    this.held = undefined;
  }

  /** The reader's statement for `sql` when it only reads, else undefined. */
  private readOnly(sql: string) {
    try {
      const stmt = this.reader.prepare(sql);
      return stmt.reader && stmt.readonly ? stmt : undefined;
    } catch {
      return undefined; // e.g. names a table this connection has not seen yet: the writer answers
    }
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.held) return result(await this.held.run(query.sql, query.parameters)) as QueryResult<R>;
    const stmt = this.readOnly(query.sql);
    if (stmt) return { rows: stmt.all(query.parameters) as R[] };
    return result(await this.writer.run(query.sql, query.parameters)) as QueryResult<R>;
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const stmt = this.held ? undefined : this.readOnly(query.sql);
    if (!stmt) throw new Error('Only reads outside a transaction can be streamed');
    for (const row of stmt.iterate(query.parameters)) yield { rows: [row as R] };
  }
}

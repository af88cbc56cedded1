import path from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { log } from '../log.js';
import type { Sqlite } from './open.js';
import { runStatement, writerError, type FromWriter, type ToWriter, type WriteResult, type WriterData, type WriterSetup } from './writer-protocol.js';

export type { WriteResult } from './writer-protocol.js';

/** Statements that run together on the writing connection, as one transaction. */
export interface WriterHold {
  run(sql: string, params?: readonly unknown[]): Promise<WriteResult>;
  release(): void;
}

/** Runs a statement on its own (its own transaction). */
export interface StatementWriter {
  run(sql: string, params?: readonly unknown[]): Promise<WriteResult>;
}

/**
 * The database's one writing connection. `hold` keeps it for a transaction, and every other
 * write waits until it is released.
 */
export interface SqlWriter extends StatementWriter {
  hold(): Promise<WriterHold>;
  close(): Promise<void>;
}

/** Why a write could not run: the database is closing, or its writer thread died. */
export class WriterUnavailable extends Error {
  constructor(readonly code: 'DATABASE_CLOSED' | 'WRITER_STOPPED') {
    super(code === 'DATABASE_CLOSED' ? 'The database is closed.' : 'The database writer stopped.');
  }
}

/**
 * A write that failed for a passing reason, not because of what it wrote: the database closing
 * (shutdown), its writer thread gone (the next write starts a new one), or its lock held past
 * the busy timeout. Trying again later may succeed.
 */
export function isDatabaseUnavailable(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  if (code === 'DATABASE_CLOSED' || code === 'WRITER_STOPPED' || code === 'SQLITE_BUSY') return true;
  // better-sqlite3 on a connection closed during shutdown.
  return e instanceof TypeError && /database connection is not open/i.test(e.message);
}

class Mutex {
  private tail: Promise<void> = Promise.resolve();

  /** Resolves with the function that lets the next waiter in, in the order they asked. */
  lock(): Promise<() => void> {
    let unlock!: () => void;
    const mine = new Promise<void>((r) => (unlock = r));
    const before = this.tail;
    this.tail = before.then(() => mine);
    return before.then(() => unlock);
  }
}

/**
 * Writes on the caller's own connection, synchronously: the command-line tools, and tests that
 * build a service on a database of their own.
 */
export function localWriter(db: Sqlite): StatementWriter {
  return { run: async (sql, params = []) => runStatement(db, sql, params) };
}

/** The writer thread's entry: beside the bundle (dist/server/db-writer.js), or the source under tsx. */
function writerEntry(): { code: string } | { file: string } {
  const here = new URL(import.meta.url).pathname;
  if (!here.endsWith('.ts')) return { file: path.join(path.dirname(here), 'db-writer.js') };
  // A worker thread does not take --import from its execArgv on Node 20: register tsx in it first.
  const target = new URL('../db-writer.ts', import.meta.url).href;
  const api = import.meta.resolve('tsx/esm/api');
  return { code: `import(${JSON.stringify(api)}).then((t) => { t.register(); return import(${JSON.stringify(target)}); })` };
}

interface Pending {
  resolve(r: WriteResult): void;
  reject(e: unknown): void;
}

/**
 * How long the main thread waits, blocked, for the writer's answer before it lets the event loop
 * go on. Most statements take 0.1-0.5 ms there: taken at once, a transaction's statements follow
 * each other within one turn of the event loop instead of one turn each (under an upload rush a
 * turn takes 5-30 ms, and an upload's 6-statement transaction held the writer 5-23 ms at the
 * median, now 1-4 ms). A write the disk holds longer is answered through the event loop, which
 * then loses at most this long.
 */
export const WAIT_AT_ONCE_MS = 2;

/** The writer thread holds one statement's rows at a time: a small heap keeps its memory small. */
const WRITER_HEAP = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 };

interface Running {
  worker: Worker;
  answers: MessagePort;
  answered: Int32Array;
}

/**
 * The writing connection in a worker thread (server/db-writer.ts), so that a write waiting on a
 * busy disk never holds the event loop. Reads stay on the main thread's own connection: in WAL
 * mode they see every write that has answered and never wait for one under way.
 *
 * When a lone statement finds the disk full, `freeSpace` may give some back (it answers whether
 * it did) and the statement is tried once more; inside a transaction, which SQLite may have
 * rolled back, the error goes to the caller.
 */
export class DatabaseWriter implements SqlWriter {
  private running: Running | undefined;
  private readonly pending = new Map<number, Pending>();
  private readonly mutex = new Mutex();
  private nextId = 1;
  private closing: Promise<void> | undefined;
  freeSpace: () => boolean = () => false;

  constructor(private readonly setup: WriterSetup) {}

  async run(sql: string, params: readonly unknown[] = []): Promise<WriteResult> {
    const release = await this.mutex.lock();
    try {
      try {
        return await this.send(sql, params);
      } catch (e) {
        if ((e as { code?: string }).code !== 'SQLITE_FULL' || !this.freeSpace()) throw e;
        return await this.send(sql, params);
      }
    } finally {
      release();
    }
  }

  async hold(): Promise<WriterHold> {
    const release = await this.mutex.lock();
    let held = true;
    return {
      run: (sql, params = []) => (held ? this.send(sql, params) : Promise.reject(new Error('The database writer was released.'))),
      release: () => {
        if (!held) return;
        held = false;
        release();
      },
    };
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      const release = await this.mutex.lock(); // the write under way finishes; later ones are refused
      const running = this.running;
      this.running = undefined;
      if (!running) return release();
      const exited = new Promise<void>((resolve) => running.worker.once('exit', () => resolve()));
      running.worker.ref();
      running.worker.postMessage({ type: 'close' } satisfies ToWriter);
      await exited;
      running.answers.close();
      release();
    })();
    return this.closing;
  }

  private send(sql: string, params: readonly unknown[]): Promise<WriteResult> {
    if (this.closing) return Promise.reject(new WriterUnavailable('DATABASE_CLOSED'));
    const running = this.ensure();
    const id = this.nextId++;
    const answer = new Promise<WriteResult>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    running.answers.ref(); // an answer on its way keeps the process alive
    let seen = Atomics.load(running.answered, 0);
    running.worker.postMessage({ type: 'run', id, sql, params } satisfies ToWriter);
    // Wait a moment for the answer (see WAIT_AT_ONCE_MS); later ones come through the event loop.
    const until = performance.now() + WAIT_AT_ONCE_MS;
    for (let left = WAIT_AT_ONCE_MS; this.pending.has(id) && left > 0; left = until - performance.now()) {
      Atomics.wait(running.answered, 0, seen, left);
      seen = Atomics.load(running.answered, 0);
      for (let m = receiveMessageOnPort(running.answers); m; m = receiveMessageOnPort(running.answers)) this.receive(m.message as FromWriter);
    }
    return answer;
  }

  private receive(m: FromWriter): void {
    if (m.type === 'done') this.settle(m.id, (p) => p.resolve({ rows: m.rows, changes: m.changes, lastInsertRowid: m.lastInsertRowid }));
    else if (m.type === 'failed') this.settle(m.id, (p) => p.reject(writerError(m.error)));
  }

  private settle(id: number, outcome: (p: Pending) => void): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (this.pending.size === 0) this.running?.answers.unref();
    outcome(p);
  }

  private ensure(): Running {
    if (this.running) return this.running;
    const entry = writerEntry();
    const channel = new MessageChannel();
    const shared = new SharedArrayBuffer(4);
    const workerData: WriterData = { ...this.setup, answers: channel.port2, answered: shared };
    const options = { workerData, transferList: [channel.port2], stdout: false, stderr: false, resourceLimits: WRITER_HEAP };
    const worker = 'code' in entry ? new Worker(entry.code, { ...options, eval: true }) : new Worker(entry.file, options);
    const running: Running = { worker, answers: channel.port1, answered: new Int32Array(shared) };
    this.running = running;
    worker.unref();
    channel.port1.on('message', (m: FromWriter) => this.receive(m));
    channel.port1.unref();
    worker.on('error', (e) => log.error('The database writer stopped on an error', e));
    worker.once('exit', (code) => {
      if (this.running === running) this.running = undefined;
      running.answers.close();
      if (this.pending.size === 0) return;
      // Never expected: the next write starts a new writer; these are told they failed.
      log.error(`The database writer stopped (exit ${code}) with ${this.pending.size} write(s) under way`);
      for (const id of [...this.pending.keys()]) this.settle(id, (p) => p.reject(new WriterUnavailable('WRITER_STOPPED')));
    });
    return running;
  }
}

import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { log } from '../../log.js';
import type { Box } from './boxes.js';
import type { FaceSetup, FromFaceWorker, PictureAnswer, ToFaceWorker } from './face-protocol.js';


/** A picture the face worker could not read (damaged, gone): skipped, not retried. */
export class UnreadablePictureError extends Error {}

const here = fileURLToPath(import.meta.url);
function workerEntry(): { file: string; execArgv: string[] } {
  if (here.endsWith('.ts')) return { file: path.join(path.dirname(here), '..', '..', 'face-worker.ts'), execArgv: ['--import', import.meta.resolve('tsx')] };
  return { file: path.join(path.dirname(here), 'face-worker.js'), execArgv: [] };
}

interface Pending {
  child: ChildProcess;
  resolve(v: unknown): void;
  reject(e: Error): void;
}

export interface FaceEngineOptions {
  /** Processes at once; one per core by default (each runs the networks on one thread). */
  workers: number;
  /** Stopped after this long without a request. */
  idleMs: number;
  /** CPU priority (19, the lowest, by default: guests' pages, uploads and the media worker come first). */
  nice?: number;
  levels?: number[];
  /** The engine before its speed-ups, for benchmarks' baselines. */
  baseline?: boolean;
}

/**
 * The server's side of the face workers: started on the first request, one picture in flight per
 * worker, stopped when idle. A given file always goes to the same worker, whose memory may still
 * hold its face codes from the previous guest's scan.
 */
export class FaceEngine {
  private readonly children: (ChildProcess | undefined)[];
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: FaceEngineOptions) {
    this.children = Array.from({ length: Math.max(1, options.workers) }, () => undefined);
  }

  get size(): number {
    return this.children.length;
  }

  /** Worker process ids while they run (benchmarks read their memory). */
  get pids(): number[] {
    return this.children.flatMap((c) => (c?.pid && c.exitCode === null ? [c.pid] : []));
  }

  get running(): boolean {
    return this.pids.length > 0;
  }

  /** The code of the selfie's largest face, or null when there is none. It goes to the least busy worker. */
  async selfie(bytes: Uint8Array, heic: boolean): Promise<Float32Array | null> {
    const busy = this.children.map((c) => [...this.pending.values()].filter((p) => c && p.child === c).length);
    const v = (await this.call(busy.indexOf(Math.min(...busy)), (id) => ({ type: 'selfie', id, bytes, heic }))) as { code: Float32Array | null };
    return v.code;
  }

  /** The codes of a gallery picture's faces (and its boxes, when they were measured now). `slot` picks the worker. */
  picture(slot: number, key: string, file: string, boxes: Box[] | null): Promise<PictureAnswer> {
    return this.call(slot % this.children.length, (id) => ({ type: 'picture', id, key, file, boxes })) as Promise<PictureAnswer>;
  }

  /** A gallery picture's face boxes only (relative), measured ahead of any guest's scan. */
  async boxes(slot: number, file: string): Promise<Box[]> {
    const v = (await this.call(slot % this.children.length, (id) => ({ type: 'boxes', id, file }))) as { boxes: Box[] };
    return v.boxes;
  }

  /** Stops every worker now (the memory of gallery codes goes with them). */
  async stop(): Promise<void> {
    clearTimeout(this.idleTimer);
    await Promise.all(
      this.children.map(async (child, i) => {
        this.children[i] = undefined;
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        this.send(child, { type: 'stop' });
        const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
        await exited;
        clearTimeout(timer);
      }),
    );
  }

  private call(slot: number, make: (id: number) => ToFaceWorker): Promise<unknown> {
    const child = this.ensure(slot);
    const id = this.nextId++;
    this.touch();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { child, resolve, reject });
      this.send(child, make(id));
    }).finally(() => this.touch());
  }

  private touch(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.pending.size === 0) void this.stop();
      else this.touch();
    }, this.options.idleMs);
    this.idleTimer.unref();
  }

  private send(child: ChildProcess, m: ToFaceWorker): void {
    if (child.connected) child.send(m, (e) => e && log.debug('Could not reach a face worker', e));
  }

  private ensure(slot: number): ChildProcess {
    const existing = this.children[slot];
    if (existing && existing.exitCode === null && existing.signalCode === null && existing.connected) return existing;
    const { file, execArgv } = workerEntry();
    const env = { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' };
    const child = fork(file, [], { execArgv, env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
    this.children[slot] = child;
    if (child.pid) {
      try {
        os.setPriority(child.pid, this.options.nice ?? 19);
      } catch (e) {
        log.warn("Could not lower a face worker's priority", e);
      }
    }
    child.on('message', (m: FromFaceWorker) => {
      if (m.type === 'ready') return;
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.type === 'done') p.resolve(m.value);
      else p.reject(m.unreadable ? new UnreadablePictureError(m.message) : new Error(m.message));
    });
    child.on('error', (e) => log.warn('A face worker reported an error', e));
    child.once('exit', (code, signal) => {
      if (this.children[slot] === child) this.children[slot] = undefined;
      for (const [id, p] of this.pending) {
        if (p.child !== child) continue;
        this.pending.delete(id);
        p.reject(new Error(`The face worker stopped (${signal ?? `exit ${code}`})`));
      }
    });
    const setup: FaceSetup = { type: 'setup', ...(this.options.levels ? { levels: this.options.levels } : {}), baseline: this.options.baseline };
    this.send(child, setup);
    return child;
  }
}

import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PhotoRow, PhotoUpdate } from '../db/schema.js';
import { log } from '../log.js';
import { StepTimeoutError } from './limits.js';
import { QueueStoppedError } from './queue.js';
import type { AudioFacts } from './audio.js';
import type { WebCopyOptions } from './video.js';
import type { KeepsakeOutcome, KeepsakePlan } from './keepsake-plan.js';
import { receivedError, type WorkerKeepsakeRequest, type AudioOps, type FromWorker, type MediaOps, type Operation, type ToWorker, type WorkerAudioRequest, type WorkerSetup } from './worker-protocol.js';

/** Nice value of the media worker: requests first, processing gets every core nobody else wants. */
export const WORKER_NICE = 10;
/**
 * jemalloc's settings for the media worker, where the image preloads jemalloc (glibc ignores
 * them): freed memory goes back to the system within a second, from a thread of jemalloc's own,
 * where it would keep it ten seconds. In the harsh rush the worker's peak fell from 280-292 MiB
 * to 245-253 (docs/benchmarks.md). The server's own process keeps jemalloc's defaults: its upload
 * pieces come and go all the time, and with them given back every second the rush's last upload
 * came 76-94 s in instead of 57-76 s.
 */
export const WORKER_MALLOC_CONF = 'background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0';

/** How long a new worker may take to say it is there (loading its modules on a busy machine) before it counts as stuck. */
const STARTUP_MS = 60_000;

/** Kills the worker and every tool it started (they share its process group). */
function killGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

/** The worker process ended while working on a file (a tool crashed it, or it ran out of memory). */
export class WorkerCrashedError extends Error {}

const here = fileURLToPath(import.meta.url);
/**
 * The worker's entry: beside the bundle (dist/server/media-worker.js), or the source file when the
 * server runs from source through tsx (tests), which the child then loads through tsx as well.
 */
function workerEntry(): { file: string; execArgv: string[] } {
  if (here.endsWith('.ts')) {
    // tsx, and the catalogues the errors it sends back are written in (scripts/i18n/register.mjs).
    const catalogues = new URL('../../scripts/i18n/register.mjs', import.meta.url).href;
    return { file: path.join(path.dirname(here), '..', 'media-worker.ts'), execArgv: ['--import', import.meta.resolve('tsx'), '--import', catalogues] };
  }
  return { file: path.join(path.dirname(here), 'media-worker.js'), execArgv: [] };
}

interface Pending {
  /** The worker it was sent to. */
  child: ChildProcess;
  resolve(value: unknown): void;
  reject(error: Error): void;
  onProgress?: (seconds: number) => void;
}

type CallOptions = Pick<WebCopyOptions, 'signal' | 'onStart' | 'onProgress'>;

/**
 * The server's side of the media worker (server/media-worker.ts): starts it on first use at
 * WORKER_NICE, sends it operations and hands back their answers. If it dies, whatever it was
 * doing fails with WorkerCrashedError (the queue counts that as an attempt, so a file that
 * crashes it every time is given up) and the next operation starts a new one.
 */
export class MediaWorker implements MediaOps, AudioOps {
  private child: ChildProcess | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stopping = false;
  /** When the current worker was last heard from (any message, or its start). */
  private lastHeard = 0;
  /** Whether the current worker has said anything yet: starting (loading sharp) may take a while on a busy machine. */
  private heard = false;
  private watchdog: NodeJS.Timeout | undefined;
  /** A worker silent for this long while it holds work is stuck (its event loop or a native call): it is replaced. */
  private readonly silentMs: number;

  constructor(private readonly setup: Omit<WorkerSetup, 'type'>) {
    this.silentMs = setup.tools.stepMs + 5000;
  }

  derivatives(photo: PhotoRow): Promise<PhotoUpdate> {
    return this.call('derivatives', photo);
  }

  webCopy(photo: PhotoRow, o: CallOptions = {}): Promise<PhotoUpdate> {
    return this.call('webCopy', photo, undefined, o);
  }

  measure(photo: PhotoRow): Promise<PhotoUpdate> {
    return this.call('measure', photo);
  }

  rotate(photo: PhotoRow, degrees: 90 | 180 | 270): Promise<PhotoUpdate> {
    return this.call('rotate', photo, degrees);
  }

  probeAudio(file: string): Promise<AudioFacts> {
    return this.request((id) => ({ type: 'run-audio', id, op: 'probe', input: file }));
  }

  audioCopy(input: string, output: string, facts: AudioFacts, signal?: AbortSignal): Promise<number> {
    return this.request((id): WorkerAudioRequest => ({ type: 'run-audio', id, op: 'copy', input, output, facts }), { signal });
  }

  /** Makes a film or photo book; `onProgress` gets its percent done, `onStart` its pause and resume. */
  makeKeepsake(plan: KeepsakePlan, o: CallOptions = {}): Promise<KeepsakeOutcome> {
    return this.request((id): WorkerKeepsakeRequest => ({ type: 'run-keepsake', id, plan }), o);
  }

  /** The worker's process id while it runs (tests and benchmarks look at it). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Takes operations again after stop(). */
  start(): void {
    this.stopping = false;
    this.watchdog ??= setInterval(() => this.checkAlive(), 1000).unref();
  }

  /** Asks the worker to leave (tools under way are killed); forces it after `graceMs`. */
  async stop(graceMs = 2000): Promise<void> {
    this.stopping = true;
    clearInterval(this.watchdog);
    this.watchdog = undefined;
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    this.send(child, { type: 'stop' });
    const timer = setTimeout(() => killGroup(child), graceMs);
    await exited;
    clearTimeout(timer);
  }

  private call(op: Operation, photo: PhotoRow, degrees?: 90 | 180 | 270, o: CallOptions = {}): Promise<PhotoUpdate> {
    return this.request((id) => ({ type: 'run', id, op, photo, degrees }), o);
  }

  /** Sends the message `make` builds for a new id; settles with the worker's answer to it. */
  private request<T>(make: (id: number) => Extract<ToWorker, { id: number }>, o: CallOptions = {}): Promise<T> {
    if (this.stopping) return Promise.reject(new QueueStoppedError('The server is shutting down.'));
    const child = this.ensure();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const { signal } = o;
      const onAbort = () => this.send(child, { type: 'cancel', id });
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      this.pending.set(id, {
        child,
        resolve: (v) => (done(), resolve(v as T)),
        reject: (e) => (done(), reject(e)),
        onProgress: o.onProgress,
      });
      this.send(child, make(id));
      // The worker pauses the operation's tool, or starts it paused if it has not started yet.
      o.onStart?.({ pause: () => this.send(child, { type: 'pause', id }), resume: () => this.send(child, { type: 'resume', id }) });
    });
  }

  /** A worker that holds work and has not been heard from for silentMs is killed; its exit fails that work. */
  private checkAlive(): void {
    const child = this.child;
    if (!child || ![...this.pending.values()].some((p) => p.child === child)) return;
    if (Date.now() - this.lastHeard < (this.heard ? this.silentMs : Math.max(this.silentMs, STARTUP_MS))) return;
    log.warn(`The media worker has not answered for ${Math.round(this.silentMs / 1000)} s: it is replaced`);
    this.silenced.add(child);
    killGroup(child);
  }

  /** Workers killed for their silence: what they held ran past its time. */
  private readonly silenced = new WeakSet<ChildProcess>();

  private send(child: ChildProcess, message: ToWorker): void {
    // A worker that has just died: its exit handler fails what was sent.
    if (child.connected) child.send(message, (e) => e && log.debug('Could not reach the media worker', e));
  }

  private ensure(): ChildProcess {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null && this.child.connected) return this.child;
    const { file, execArgv } = workerEntry();
    // Two malloc arenas: libvips allocates and frees large pixel buffers from several threads, and
    // glibc's default of one arena per thread would keep hundreds of MiB it no longer uses. Under
    // jemalloc (the image preloads it), WORKER_MALLOC_CONF does the same.
    const env = { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2', MALLOC_CONF: process.env.MALLOC_CONF ?? WORKER_MALLOC_CONF };
    // A process group of its own: a worker killed because it stopped answering takes its tools with it.
    const child = fork(file, [], { execArgv, env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced', detached: true });
    this.child = child;
    if (child.pid) {
      try {
        os.setPriority(child.pid, WORKER_NICE);
      } catch (e) {
        log.warn('Could not lower the media worker\'s priority', e);
      }
    }
    this.lastHeard = Date.now();
    this.heard = false;
    child.on('message', (m: FromWorker) => {
      if (this.child === child) {
        this.lastHeard = Date.now();
        this.heard = true;
      }
      if (m.type === 'ready' || m.type === 'alive') return;
      const p = this.pending.get(m.id);
      if (!p) return;
      if (m.type === 'progress') return p.onProgress?.(m.seconds);
      this.pending.delete(m.id);
      if (m.type === 'done') p.resolve(m.value);
      else p.reject(receivedError(m.error));
    });
    child.on('error', (e) => log.warn('The media worker reported an error', e));
    child.once('exit', (code, signal) => {
      if (this.child === child) this.child = undefined;
      const failed = [...this.pending].filter(([, p]) => p.child === child);
      if (!failed.length) return;
      if (!this.stopping) log.warn(`The media worker stopped (${signal ?? `exit ${code}`}) while working on ${failed.length} file(s)`);
      for (const [id, p] of failed) {
        this.pending.delete(id);
        // Stopped with the server: the job stays queued and runs after the next start.
        p.reject(
          this.stopping
            ? new QueueStoppedError('The server is shutting down.')
            : this.silenced.has(child)
              ? new StepTimeoutError(`The processing stopped answering for ${Math.round(this.silentMs / 1000)} s and was restarted.`)
              : new WorkerCrashedError('The processing stopped while working on this file (a tool crashed).'),
        );
      }
    });
    this.send(child, { type: 'setup', ...this.setup });
    return child;
  }
}

import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB, JobRow } from '../db/schema.js';
import { log } from '../log.js';
import { oneAtATime, type SoloLane } from './encode-lane.js';
import { isMachineFailure } from './failures.js';
import type { ProcessingRepo } from './processing.repo.js';
import { PermanentJobError, QueueStoppedError, JobGoneError, type Job, type JobHandlers, type JobType, type Payload, type Result } from './jobs.js';
import { ToolMissingError } from './tools.js';

export { JobGoneError, PermanentJobError, QueueStoppedError } from './jobs.js';
export type { Job, JobHandlers, JobKinds, JobType, Payload, RegenerateStats, Result } from './jobs.js';

export interface QueueOptions {
  /** Worker jobs run at once. */
  concurrency: number;
  /**
   * Jobs that only hand out other jobs and wait for them (regenerate-all): they take no
   * worker slot, or with one slot they would wait forever for work that cannot start.
   */
  coordinatorTypes: readonly JobType[];
  /**
   * Long jobs (video re-encoding) that run one at a time in a lane of their own: they never take
   * a worker slot, so photos keep being processed while a long video is encoded.
   */
  soloTypes?: readonly JobType[];
  /** Which solo job runs, shortest video first (default: one at a time, oldest first). */
  soloLane?: SoloLane;
  /**
   * The lowest priority (keepsakes): one at a time, outside the worker slots, and only started
   * while no other job is running or ready; the job itself yields to the others (othersBusy).
   */
  idleTypes?: readonly JobType[];
}

const POLL_MS = 1000;
const backoffMs = (attempts: number) => Math.min(60_000, 2000 * 2 ** (attempts - 1));
const CRASHED = 'The server stopped while working on this file, every time it tried.';

function parseJob(row: JobRow): Job {
  return { id: row.id, type: row.type as JobType, payload: JSON.parse(row.payload), attempts: row.attempts, maxAttempts: row.max_attempts } as Job;
}

interface Waiter {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/**
 * Jobs are rows in SQLite, so a restart resumes them: a bounded number run at once, never two
 * for the same photo, failures retry with backoff up to max_attempts, and an idempotency key
 * makes enqueueing repeatable. `submit` also hands back a promise settled when the job ends.
 */
export class JobQueue {
  private readonly active = new Set<Promise<void>>();
  private readonly coordinating = new Set<Promise<void>>();
  private readonly solo = new Set<Promise<void>>();
  private readonly lowest = new Set<Promise<void>>();
  private readonly waiters = new Map<number, Waiter>();
  /** Ids of jobs claimed and not yet finished. */
  private readonly claimed = new Set<number>();
  /** Machine failures in a row per job: the wait before its next try grows with them. */
  private readonly machineFailures = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = false;
  /** Counts starts and stops: a start that a stop (or another start) overtook while it awaited gives way. */
  private epoch = 0;
  private pumping = false;
  private pumpAgain = false;
  private readonly lane: SoloLane;

  constructor(
    private readonly repo: ProcessingRepo,
    private readonly options: QueueOptions,
    private readonly handlers: JobHandlers,
  ) {
    this.lane = options.soloLane ?? oneAtATime();
  }

  /**
   * Queues a job unless one with the same key exists; resolves once it is stored (`within`: as
   * part of that transaction; the claim the pump makes waits for the connection, so after it).
   */
  async enqueue<T extends JobType>(
    type: T,
    payload: Payload<T>,
    opts: { key: string; photoId?: string; maxAttempts?: number; within?: Kysely<DB> },
  ): Promise<void> {
    await this.insert(type, payload, opts.key, opts);
    this.pump();
  }

  /**
   * Queues a job and resolves with its result when it has run, or rejects with its error
   * (JobGoneError when its photo does not exist or is deleted first).
   */
  async submit<T extends JobType>(type: T, payload: Payload<T>, opts: { photoId?: string; maxAttempts?: number } = {}): Promise<Result<T>> {
    if (this.stopped) throw new QueueStoppedError('The server is shutting down.');
    const id = await this.insert(type, payload, `${type}:${randomUUID()}`, opts);
    if (id === undefined) throw new JobGoneError('The job has no photo.');
    const done = new Promise<Result<T>>((resolve, reject) => this.waiters.set(id, { resolve: resolve as (v: unknown) => void, reject }));
    this.pump();
    return done;
  }

  private insert(type: JobType, payload: unknown, key: string, opts: { photoId?: string; maxAttempts?: number; within?: Kysely<DB> }) {
    const job = { type, photoId: opts.photoId ?? null, payload: JSON.stringify(payload), key, maxAttempts: opts.maxAttempts ?? 3 };
    return this.repo.insert(job, opts.within);
  }

  async start(): Promise<void> {
    const epoch = ++this.epoch;
    // A job still 'running' was under way when the process died: a crash counts as an attempt
    // (counted when it was claimed), so a file that kills the process is given up after max_attempts.
    for (const row of await this.repo.requeueRunning(CRASHED)) {
      log.warn(`Job ${row.id} (${row.type}) gave up: ${CRASHED}`);
      await this.handlers.failed(parseJob(row), new PermanentJobError(CRASHED)).catch((e) => log.error(`Job ${row.id} could not record its failure`, e));
    }
    // Jobs parked for a tool that was missing: try them again (tools may have been installed).
    await this.unpark();
    // Stopped meanwhile (a SIGTERM during start-up, a test pausing the queue at once): stay
    // stopped. Started on, this start would claim jobs the stop had left, and the next start
    // would put them back as if a crash had cut them short, their attempt spent twice.
    if (epoch !== this.epoch) return;
    this.running = true;
    this.stopped = false;
    this.timer = setInterval(() => {
      this.pump();
      this.dropVanished().catch((e) => log.warn('Could not check on waiting jobs', e));
    }, POLL_MS);
    this.timer.unref();
    this.pump();
  }

  /** Jobs waiting for a missing tool become ready again (it may be there now). */
  async unpark(): Promise<void> {
    await this.repo.unpark();
    this.pump();
  }

  /** Stops taking jobs, waits (up to graceMs) for those under way, then fails what still waits. */
  async stop(graceMs = 5000): Promise<void> {
    this.epoch++;
    this.running = false;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.active.size || this.solo.size || this.lowest.size) {
      await Promise.race([Promise.allSettled([...this.active, ...this.solo, ...this.lowest]), new Promise((r) => setTimeout(r, graceMs).unref())]);
    }
    // Cut short by a clean stop, not by the file: give their attempt back before the next start.
    if (this.claimed.size) await this.repo.release([...this.claimed]).catch((e) => log.warn('Could not release unfinished jobs', e));
    for (const [id, w] of this.waiters) {
      this.waiters.delete(id);
      w.reject(new QueueStoppedError('The server is shutting down.'));
    }
  }

  /** Resolves when nothing is queued or running (tests and benchmarks). */
  async idle(pollMs = 50): Promise<void> {
    for (;;) {
      const left = await this.repo.countUnfinished();
      if (left === 0 && this.active.size === 0 && this.coordinating.size === 0 && this.solo.size === 0 && this.lowest.size === 0) return;
      await new Promise((r) => setTimeout(r, pollMs));
    }
  }

  private pump(): void {
    if (!this.running) return;
    // A job that ends while a fill is under way may free its photo after that fill looked:
    // look again then, rather than leave the next job of the photo to the poll.
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    this.pumpAgain = false;
    this.fill()
      .catch((e) => log.error('The job queue could not take the next job', e))
      .finally(() => {
        this.pumping = false;
        if (this.pumpAgain) this.pump();
      });
  }

  private async fill(): Promise<void> {
    const coordinatorTypes = this.options.coordinatorTypes;
    const soloTypes = this.options.soloTypes ?? [];
    // The claim filter names the types a claim takes (coordinators: true) or leaves (false).
    const idleTypes = this.options.idleTypes ?? [];
    const notWorkers = [...coordinatorTypes, ...soloTypes, ...idleTypes];
    while (this.running && this.active.size < this.options.concurrency) {
      const row = await this.repo.claim({ coordinatorTypes: notWorkers, coordinators: false });
      if (!row) break;
      this.track(this.active, row);
    }
    // The solo lane: the shortest video first; the lane decides whether it starts now.
    while (this.running && soloTypes.length) {
      const next = await this.repo.nextShortest(soloTypes);
      if (!next || !this.lane.admit(next.id, next.duration)) {
        this.lane.idle();
        break;
      }
      const row = await this.repo.claimById(next.id);
      if (!row) {
        this.lane.done(next.id); // taken or changed meanwhile
        break;
      }
      this.track(this.solo, row);
    }
    while (this.running) {
      const row = await this.repo.claim({ coordinatorTypes, coordinators: true });
      if (!row) break;
      this.track(this.coordinating, row);
    }
    if (this.running && idleTypes.length && !this.lowest.size && !this.active.size && !this.solo.size && !(await this.repo.othersBusy(idleTypes))) {
      const row = await this.repo.claim({ coordinatorTypes: idleTypes, coordinators: true });
      if (row) this.track(this.lowest, row);
    }
  }

  /** Whether jobs other than the lowest-priority ones are running or ready: those yield meanwhile. */
  othersBusy(): Promise<boolean> {
    return this.repo.othersBusy(this.options.idleTypes ?? []);
  }

  private track(set: Set<Promise<void>>, row: JobRow): void {
    const p = this.execute(row).finally(() => {
      set.delete(p);
      if (set === this.solo) this.lane.done(row.id);
      this.pump();
      this.dropVanished().catch((e) => log.warn('Could not check on waiting jobs', e));
    });
    set.add(p);
  }

  private async execute(row: JobRow): Promise<void> {
    let job: Job | undefined;
    this.claimed.add(row.id);
    try {
      job = parseJob(row);
      const result = await this.handlers.run(job);
      await this.repo.markDone(row.id);
      this.machineFailures.delete(row.id);
      this.settle(row.id, (w) => w.resolve(result));
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      // Left 'running' in the table: the next start runs it again.
      if (err instanceof QueueStoppedError) return this.settle(row.id, (w) => w.reject(err));
      if (isMachineFailure(err)) return this.retryLater(row, err);
      if (err instanceof ToolMissingError) return this.park(row, err);
      const final = err instanceof PermanentJobError || row.attempts >= row.max_attempts;
      if (final) this.machineFailures.delete(row.id);
      try {
        await this.repo.markFailed(row.id, err.message, final, Date.now() + backoffMs(row.attempts));
        if (final) {
          log.warn(`Job ${row.id} (${row.type}) failed: ${err.message}`);
          if (job) await this.handlers.failed(job, err);
        }
      } catch (inner) {
        // During shutdown the database may already be closed; the job stays 'running' and is resumed at next start.
        if (this.running) log.error(`Job ${row.id} could not record its failure`, inner);
      }
      if (final) this.settle(row.id, (w) => w.reject(err));
    } finally {
      this.claimed.delete(row.id);
    }
  }

  /** A full disk or a tool that would not start: try again later, without spending an attempt. */
  private async retryLater(row: JobRow, err: Error): Promise<void> {
    const times = (this.machineFailures.get(row.id) ?? 0) + 1;
    this.machineFailures.set(row.id, times);
    log.warn(`Job ${row.id} (${row.type}) will be retried: the machine failed (${err.message})`);
    const wait = backoffMs(times);
    try {
      await this.repo.retryLater(row.id, err.message, Date.now() + wait);
    } catch (inner) {
      // The database cannot be written either (disk full): try to put it back after the wait,
      // rather than leave it 'running' (which only the next start would pick up again).
      if (!this.running) return;
      log.error(`Job ${row.id} could not be put back in the queue yet`, inner);
      setTimeout(() => void this.retryLater(row, err), wait).unref();
    }
  }

  /**
   * A tool the job needs is not installed: it waits, without spending an attempt, until the next
   * start or until the tool is found (processing.service checks), instead of failing in a loop.
   */
  private async park(row: JobRow, err: ToolMissingError): Promise<void> {
    log.debug(`Job ${row.id} (${row.type}) waits: ${err.message}`);
    try {
      await this.repo.park(row.id, err.message);
    } catch (inner) {
      if (this.running) log.error(`Job ${row.id} could not be set to wait for ${err.tool}`, inner);
    }
    this.settle(row.id, (w) => w.reject(err));
  }

  private settle(id: number, how: (w: Waiter) => void): void {
    const w = this.waiters.get(id);
    if (!w) return;
    this.waiters.delete(id);
    how(w);
  }

  /** A queued job disappears with its photo (ON DELETE CASCADE): its waiter must not wait forever. */
  private async dropVanished(): Promise<void> {
    if (!this.waiters.size) return;
    const ids = [...this.waiters.keys()];
    const left = await this.repo.existing(ids);
    for (const id of ids) {
      if (!left.has(id)) this.settle(id, (w) => w.reject(new JobGoneError('The job was removed with its photo.')));
    }
  }
}

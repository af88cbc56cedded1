import { sql, type Kysely } from 'kysely';
import type { DB, JobRow } from '../db/schema.js';
import { log } from '../log.js';

/** The jobs this queue knows, with their typed payloads. */
export interface JobPayloads {
  'process-media': { photoId: string };
}
export type JobType = keyof JobPayloads;

/** A failure that retrying cannot fix (the file itself is bad): the job fails at once. */
export class PermanentJobError extends Error {}

export interface JobHandlers {
  run(type: JobType, payload: JobPayloads[JobType], job: JobRow): Promise<void>;
  /** Called once a job has failed for good. */
  failed(type: JobType, payload: JobPayloads[JobType], error: Error): Promise<void>;
}

const POLL_MS = 1000;
const backoffMs = (attempts: number) => Math.min(60_000, 2000 * 2 ** (attempts - 1));

/**
 * Jobs are rows in SQLite, so a restart resumes them: a bounded number run at once, failures
 * retry with backoff up to max_attempts, and an idempotency key makes enqueueing repeatable.
 */
export class JobQueue {
  private active = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private pumping = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly concurrency: number,
    private readonly handlers: JobHandlers,
  ) {}

  async enqueue<T extends JobType>(type: T, payload: JobPayloads[T], opts: { key: string; photoId?: string; maxAttempts?: number }): Promise<void> {
    const now = Date.now();
    await this.db
      .insertInto('jobs')
      .values({
        type,
        photo_id: opts.photoId ?? null,
        payload: JSON.stringify(payload),
        idempotency_key: opts.key,
        max_attempts: opts.maxAttempts ?? 3,
        run_after: now,
        last_error: null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('idempotency_key').doNothing())
      .execute();
    this.pump();
  }

  async start(): Promise<void> {
    // Jobs a crash left running have not finished: run them again.
    await this.db.updateTable('jobs').set({ status: 'queued', updated_at: Date.now() }).where('status', '=', 'running').execute();
    this.running = true;
    this.timer = setInterval(() => this.pump(), POLL_MS);
    this.timer.unref();
    this.pump();
  }

  /** Stops taking jobs and waits (up to graceMs) for those under way. */
  async stop(graceMs = 5000): Promise<void> {
    this.running = false;
    if (this.timer) clearInterval(this.timer);
    if (this.active.size === 0) return;
    await Promise.race([Promise.allSettled([...this.active]), new Promise((r) => setTimeout(r, graceMs).unref())]);
  }

  /** Resolves when nothing is queued or running (tests and benchmarks). */
  async idle(pollMs = 50): Promise<void> {
    for (;;) {
      const left = await this.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('status', 'in', ['queued', 'running']).executeTakeFirst();
      if (Number(left?.n ?? 0) === 0 && this.active.size === 0) return;
      await new Promise((r) => setTimeout(r, pollMs));
    }
  }

  private pump(): void {
    if (!this.running || this.pumping) return;
    this.pumping = true;
    this.fill()
      .catch((e) => log.error('The job queue could not take the next job', e))
      .finally(() => {
        this.pumping = false;
      });
  }

  private async fill(): Promise<void> {
    while (this.running && this.active.size < this.concurrency) {
      const job = await this.claim();
      if (!job) return;
      const p = this.execute(job).finally(() => {
        this.active.delete(p);
        this.pump();
      });
      this.active.add(p);
    }
  }

  /** Takes the oldest ready job in one statement, so two takers never get the same row. */
  private async claim(): Promise<JobRow | undefined> {
    const now = Date.now();
    const r = await sql<JobRow>`
      UPDATE jobs SET status = 'running', attempts = attempts + 1, updated_at = ${now}
      WHERE id = (SELECT id FROM jobs WHERE status = 'queued' AND run_after <= ${now} ORDER BY run_after, id LIMIT 1)
      RETURNING *`.execute(this.db);
    return r.rows[0];
  }

  private async execute(job: JobRow): Promise<void> {
    const type = job.type as JobType;
    let payload: JobPayloads[JobType];
    try {
      payload = JSON.parse(job.payload);
      await this.handlers.run(type, payload, job);
      await this.db.updateTable('jobs').set({ status: 'done', last_error: null, updated_at: Date.now() }).where('id', '=', job.id).execute();
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      try {
        const final = err instanceof PermanentJobError || job.attempts >= job.max_attempts;
        await this.db
          .updateTable('jobs')
          .set({
            status: final ? 'failed' : 'queued',
            last_error: err.message.slice(0, 2000),
            run_after: Date.now() + backoffMs(job.attempts),
            updated_at: Date.now(),
          })
          .where('id', '=', job.id)
          .execute();
        if (final) {
          log.warn(`Job ${job.id} (${type}) failed: ${err.message}`);
          await this.handlers.failed(type, JSON.parse(job.payload), err);
        }
      } catch (inner) {
        // During shutdown the database may already be closed; the job stays 'running' and is resumed at next start.
        if (this.running) log.error(`Job ${job.id} could not record its failure`, inner);
      }
    }
  }
}

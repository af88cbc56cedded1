import { sql, type Kysely } from 'kysely';
import type { DB, JobRow } from '../db/schema.js';

export interface NewJob {
  type: string;
  photoId: string | null;
  payload: string;
  key: string;
  maxAttempts: number;
}

/** Which jobs a claim may take: the workers' own, or only the coordinators (see JobQueue). */
export interface ClaimFilter {
  coordinatorTypes: readonly string[];
  coordinators: boolean;
}

/** Every SQL statement about the jobs table (the processing queue). */
export class ProcessingRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Adds a job; its id, or undefined when the idempotency key is taken or its photo does not
   * exist (checked in the same statement, so a photo deleted meanwhile cannot slip through).
   * `within`: a transaction the job is part of (stored with its photo, or not at all).
   */
  async insert(job: NewJob, within: Kysely<DB> = this.db): Promise<number | undefined> {
    const now = Date.now();
    const r = await sql<{ id: number }>`
      INSERT INTO jobs (type, photo_id, payload, idempotency_key, max_attempts, run_after, last_error, created_at, updated_at)
      SELECT ${job.type}, ${job.photoId}, ${job.payload}, ${job.key}, ${job.maxAttempts}, ${now}, NULL, ${now}, ${now}
      WHERE ${job.photoId} IS NULL OR EXISTS (SELECT 1 FROM photos WHERE id = ${job.photoId})
      ON CONFLICT (idempotency_key) DO NOTHING
      RETURNING id`.execute(within);
    return r.rows[0]?.id;
  }

  /**
   * Jobs a crash left running have not finished: they run again, unless they have used all
   * their attempts (each crash was one); those fail with `reason` and are returned.
   */
  async requeueRunning(reason: string): Promise<JobRow[]> {
    const now = Date.now();
    const gaveUp = await this.db
      .updateTable('jobs')
      .set({ status: 'failed', last_error: reason, updated_at: now })
      .where('status', '=', 'running')
      .whereRef('attempts', '>=', 'max_attempts')
      .returningAll()
      .execute();
    await this.db.updateTable('jobs').set({ status: 'queued', updated_at: now }).where('status', '=', 'running').execute();
    return gaveUp;
  }

  /** Jobs a clean stop cut short: queued again with their attempt given back. */
  async release(ids: readonly number[]): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set((eb) => ({ status: 'queued', attempts: sql`max(${eb.ref('attempts')} - 1, 0)`, updated_at: Date.now() }))
      .where('id', 'in', ids)
      .where('status', '=', 'running')
      .execute();
  }

  /** A machine failure (disk full, a tool that would not start): queued again for `retryAt`, the attempt given back. */
  async retryLater(id: number, error: string, retryAt: number): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set((eb) => ({ status: 'queued', attempts: sql`max(${eb.ref('attempts')} - 1, 0)`, last_error: error.slice(0, 2000), run_after: retryAt, updated_at: Date.now() }))
      .where('id', '=', id)
      .execute();
  }

  /** Parked jobs (waiting for a missing tool) have this run_after: they never come up on their own. */
  static readonly PARKED = 8.64e15;

  /** The job waits for a tool that is not installed: queued, its attempt given back, never ready by itself. */
  async park(id: number, error: string): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set((eb) => ({ status: 'queued', attempts: sql`max(${eb.ref('attempts')} - 1, 0)`, last_error: error.slice(0, 2000), run_after: ProcessingRepo.PARKED, updated_at: Date.now() }))
      .where('id', '=', id)
      .execute();
  }

  /** Every parked job becomes ready (a start, or the tool it waited for is there now). */
  async unpark(): Promise<void> {
    await this.db.updateTable('jobs').set({ run_after: Date.now() }).where('status', '=', 'queued').where('run_after', '>=', ProcessingRepo.PARKED).execute();
  }

  /**
   * The ready job of one of `types` whose photo is the shortest video (unknown lengths last),
   * without taking it: the solo lane decides first whether it starts now.
   */
  async nextShortest(types: readonly string[]): Promise<{ id: number; duration: number | null } | undefined> {
    const r = await sql<{ id: number; duration: number | null }>`
      SELECT j.id, p.duration FROM jobs j LEFT JOIN photos p ON p.id = j.photo_id
      WHERE j.status = 'queued' AND j.run_after <= ${Date.now()} AND j.type IN (${sql.join([...types])})
        AND (j.photo_id IS NULL OR NOT EXISTS (SELECT 1 FROM jobs r WHERE r.status = 'running' AND r.photo_id = j.photo_id))
      ORDER BY p.duration IS NULL, p.duration, j.run_after, j.id LIMIT 1`.execute(this.db);
    return r.rows[0];
  }

  /** Takes that job, if it is still ready. */
  async claimById(id: number): Promise<JobRow | undefined> {
    const now = Date.now();
    const r = await sql<JobRow>`
      UPDATE jobs SET status = 'running', attempts = attempts + 1, updated_at = ${now}
      WHERE id = ${id} AND status = 'queued' AND run_after <= ${now}
        AND (photo_id IS NULL OR NOT EXISTS (SELECT 1 FROM jobs r WHERE r.status = 'running' AND r.photo_id = jobs.photo_id))
      RETURNING *`.execute(this.db);
    return r.rows[0];
  }

  /**
   * Takes the oldest ready job in one statement, so two takers never get the same row; a job
   * whose photo already has a running job waits, so one photo is never worked on twice at once.
   */
  async claim(filter: ClaimFilter): Promise<JobRow | undefined> {
    const now = Date.now();
    const types = sql.join(filter.coordinatorTypes.length ? filter.coordinatorTypes : ['']);
    const kind = filter.coordinators ? sql`j.type IN (${types})` : sql`j.type NOT IN (${types})`;
    const r = await sql<JobRow>`
      UPDATE jobs SET status = 'running', attempts = attempts + 1, updated_at = ${now}
      WHERE id = (
        SELECT j.id FROM jobs j
        WHERE j.status = 'queued' AND j.run_after <= ${now} AND ${kind}
          AND (j.photo_id IS NULL OR NOT EXISTS (SELECT 1 FROM jobs r WHERE r.status = 'running' AND r.photo_id = j.photo_id))
        ORDER BY j.run_after, j.id LIMIT 1)
      RETURNING *`.execute(this.db);
    return r.rows[0];
  }

  async markDone(id: number): Promise<void> {
    await this.db.updateTable('jobs').set({ status: 'done', last_error: null, updated_at: Date.now() }).where('id', '=', id).execute();
  }

  /** Records a failure: the job fails for good (`final`) or waits until `retryAt`. */
  async markFailed(id: number, error: string, final: boolean, retryAt: number): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ status: final ? 'failed' : 'queued', last_error: error.slice(0, 2000), run_after: retryAt, updated_at: Date.now() })
      .where('id', '=', id)
      .execute();
  }

  /** Whether a job of another type than `types` is running or ready to run (those go first). */
  async othersBusy(types: readonly string[]): Promise<boolean> {
    const r = await sql<{ n: number }>`
      SELECT EXISTS (SELECT 1 FROM jobs WHERE type NOT IN (${sql.join([...types])})
        AND (status = 'running' OR (status = 'queued' AND run_after <= ${Date.now()}))) AS n`.execute(this.db);
    return Number(r.rows[0]?.n ?? 0) === 1;
  }

  async countUnfinished(): Promise<number> {
    const r = await this.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /** Which of these jobs still exist (a job goes when its photo is deleted: ON DELETE CASCADE). */
  async existing(ids: readonly number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = await this.db.selectFrom('jobs').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id));
  }
}

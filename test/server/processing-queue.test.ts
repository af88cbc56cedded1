import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Kysely } from 'kysely';
import type { Sqlite } from '../../server/db/open.js';
import type { DB } from '../../server/db/schema.js';
import { ProcessingRepo } from '../../server/processing/processing.repo.js';
import { JobGoneError, JobQueue, type Job, type JobHandlers } from '../../server/processing/queue.js';
import { insertBarePhoto, migratedDb } from '../helpers/queue-db.js';

let sqlite: Sqlite;
let db: Kysely<DB>;
before(async () => ({ sqlite, db } = await migratedDb('wedding-queue-')));
after(() => db.destroy());

let n = 0;
const photo = (): string => insertBarePhoto(sqlite, `p${++n}`, 'x.jpg', 'image/jpeg');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The queue's poll timer does not hold the process open (a server does); a test waiting on it must. */
const keepAlive = () => setInterval(() => {}, 100);

/** A queue whose jobs take `ms` and record which photos were being worked on at the same time. */
function recordingQueue(concurrency: number, ms: number, extra: Partial<JobHandlers> = {}) {
  const busy = new Set<string>();
  const overlaps: string[] = [];
  const order: number[] = [];
  const handlers: JobHandlers = {
    async run(job: Job) {
      const id = 'photoId' in job.payload ? job.payload.photoId : '';
      if (busy.has(id)) overlaps.push(id);
      busy.add(id);
      await sleep(ms);
      busy.delete(id);
      order.push(job.id);
    },
    async failed() {},
    ...extra,
  };
  const queue = new JobQueue(new ProcessingRepo(db), { concurrency, coordinatorTypes: ['regenerate-all'] }, handlers);
  return { queue, overlaps, order };
}

test('jobs of one photo never run at the same time, other photos run beside them', async () => {
  const { queue, overlaps } = recordingQueue(4, 40);
  await queue.start();
  try {
    const a = photo();
    const b = photo();
    const started = Date.now();
    await Promise.all([
      queue.submit('rotate', { photoId: a, degrees: 90 }, { photoId: a }),
      queue.submit('rotate', { photoId: a, degrees: 90 }, { photoId: a }),
      queue.submit('regenerate', { photoId: a }, { photoId: a }),
      queue.submit('regenerate', { photoId: b }, { photoId: b }),
    ]);
    assert.deepEqual(overlaps, []);
    assert.ok(Date.now() - started >= 120, 'the three jobs of photo a ran one after the other');
    await queue.idle();
  } finally {
    await queue.stop();
  }
});

test('submit resolves with the handler result and rejects with its error', async () => {
  const boom = new Error('the file is bad');
  const queue = new JobQueue(new ProcessingRepo(db), { concurrency: 1, coordinatorTypes: ['regenerate-all'] }, {
    async run(job) {
      if (job.type === 'regenerate-all') return { processed: 1, succeeded: 1, failed: 0 };
      throw boom;
    },
    async failed() {},
  });
  await queue.start();
  try {
    assert.deepEqual(await queue.submit('regenerate-all', {}, { maxAttempts: 1 }), { processed: 1, succeeded: 1, failed: 0 });
    const p = photo();
    await assert.rejects(queue.submit('regenerate', { photoId: p }, { photoId: p, maxAttempts: 1 }), (e) => e === boom);
    await assert.rejects(queue.submit('regenerate', { photoId: 'missing' }, { photoId: 'missing' }), JobGoneError);
  } finally {
    await queue.stop();
  }
});

test('a coordinator job takes no worker slot, so it can wait for jobs it hands out', async () => {
  let queue!: JobQueue;
  const ids = [photo(), photo(), photo()];
  queue = new JobQueue(new ProcessingRepo(db), { concurrency: 1, coordinatorTypes: ['regenerate-all'] }, {
    async run(job) {
      if (job.type !== 'regenerate-all') return;
      for (const id of ids) await queue.submit('regenerate', { photoId: id }, { photoId: id });
      return { processed: ids.length, succeeded: ids.length, failed: 0 };
    },
    async failed() {},
  });
  await queue.start();
  try {
    const stats = await queue.submit('regenerate-all', {});
    assert.equal(stats.succeeded, 3);
  } finally {
    await queue.stop();
  }
});

test('a photo deleted while its job waits ends the wait with JobGoneError', async () => {
  const { queue } = recordingQueue(1, 400);
  await queue.start();
  const alive = keepAlive();
  try {
    const a = photo();
    const running = queue.submit('regenerate', { photoId: a }, { photoId: a });
    const waiting = queue.submit('rotate', { photoId: a, degrees: 90 }, { photoId: a });
    await sleep(50);
    sqlite.prepare('DELETE FROM photos WHERE id = ?').run(a);
    await assert.rejects(waiting, JobGoneError);
    await running.catch(() => {});
  } finally {
    clearInterval(alive);
    await queue.stop();
  }
});

test('a retried job waits for its backoff and keeps its waiter until it succeeds or gives up', async () => {
  let calls = 0;
  const queue = new JobQueue(new ProcessingRepo(db), { concurrency: 1, coordinatorTypes: [] }, {
    async run() {
      calls++;
      throw new Error(`try ${calls}`);
    },
    async failed() {},
  });
  await queue.start();
  const alive = keepAlive();
  try {
    const p = photo();
    const started = Date.now();
    await assert.rejects(queue.submit('regenerate', { photoId: p }, { photoId: p, maxAttempts: 2 }), /try 2/);
    assert.equal(calls, 2);
    assert.ok(Date.now() - started >= 1900, 'the retry waited for its backoff');
    const job = sqlite.prepare('SELECT status, attempts, last_error FROM jobs WHERE photo_id = ?').get(p);
    assert.deepEqual(job, { status: 'failed', attempts: 2, last_error: 'try 2' });
  } finally {
    clearInterval(alive);
    await queue.stop();
  }
});

test('a stop that comes while the queue is starting wins: nothing is taken, and a job is taken once when it starts again', async () => {
  const { queue, order } = recordingQueue(1, 10);
  const hold = keepAlive();
  try {
    const starting = queue.start();
    // The stop comes while start() still looks for jobs a crash left running (a SIGTERM at boot).
    await queue.stop();
    await starting;
    const id = photo();
    await queue.enqueue('process-media', { photoId: id }, { key: `process-media:${id}`, photoId: id });
    await sleep(300);
    const row = () => sqlite.prepare('SELECT status, attempts FROM jobs WHERE photo_id = ?').get(id) as { status: string; attempts: number };
    assert.deepEqual(row(), { status: 'queued', attempts: 0 }, 'a stopped queue takes nothing');
    await queue.start();
    for (let i = 0; i < 100 && row().status !== 'done'; i++) await sleep(20);
    assert.deepEqual(row(), { status: 'done', attempts: 1 }, 'taken once, its attempt counted once');
    assert.equal(order.length, 1);
  } finally {
    clearInterval(hold);
    await queue.stop();
  }
});

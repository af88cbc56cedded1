import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AppError } from '../../server/errors.js';
import { startTestServer } from '../helpers/server.js';
import { makeVideo, tinyImage, uploadFile, waitForStatus } from '../helpers/uploads.js';

let s: Awaited<ReturnType<typeof startTestServer>>;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const row = (id: string) => s.ctx.sqlite.prepare('SELECT * FROM photos WHERE id = ?').get(id) as any;
const jobs = (photoId: string) =>
  s.ctx.sqlite.prepare('SELECT type, status, payload, last_error FROM jobs WHERE photo_id = ? ORDER BY id').all(photoId) as {
    type: string;
    status: string;
    payload: string;
    last_error: string | null;
  }[];

async function uploaded(data: Buffer, name: string): Promise<any> {
  const r = await uploadFile(s.url, data, name);
  assert.ok(r.status === 201, JSON.stringify(r.body));
  await waitForStatus(s.url, r.body.photo_id);
  return row(r.body.photo_id);
}

/** A JPEG whose header reads fine but whose image data stops early: decoding fails. */
async function damagedJpeg(seed: number): Promise<Buffer> {
  const j = await tinyImage('jpeg', seed, 200, 150);
  return j.subarray(0, Math.floor(j.length * 0.7));
}

const code = (expected: string, sentence: RegExp) => (e: unknown) => {
  assert.ok(e instanceof AppError, `an AppError, got ${String(e)}`);
  assert.equal(e.code, expected);
  assert.match(e.message, sentence);
  return true;
};

test('rotate and regenerate run as jobs in the queue', async () => {
  const r = await uploaded(await tinyImage('png', 101, 100, 50), 'job.png');
  await s.services.processing.rotate(r.id, 90);
  await s.services.processing.regenerate(r.id);
  const list = jobs(r.id);
  assert.deepEqual(
    list.map((j) => [j.type, j.status]),
    [
      ['process-media', 'done'],
      ['rotate', 'done'],
      ['regenerate', 'done'],
    ],
  );
  assert.deepEqual(JSON.parse(list[1].payload), { photoId: r.id, degrees: 90 });
  const after = row(r.id);
  assert.equal(after.rotation, 90);
  assert.equal(after.derivative_version, r.derivative_version + 2);
});

test('rotations of one photo requested at once all apply, one after the other', async () => {
  const r = await uploaded(await tinyImage('jpeg', 102, 120, 80), 'twice.jpg');
  await Promise.all([s.services.processing.rotate(r.id, 90), s.services.processing.rotate(r.id, 180), s.services.processing.regenerate(r.id)]);
  const after = row(r.id);
  assert.equal(after.rotation, 270);
  assert.equal(after.orientation, 8);
  assert.deepEqual([after.width, after.height], [80, 120]);
  assert.equal(after.status, 'complete');
  assert.equal(after.derivative_version, r.derivative_version + 3);
  assert.deepEqual(
    jobs(r.id).map((j) => j.status),
    ['done', 'done', 'done', 'done'],
  );
});

test('errors carry the code the API answers with', async () => {
  const v = await uploaded(makeVideo('mp4', [], 1), 'clip.mp4');
  await assert.rejects(s.services.processing.rotate(v.id, 90), code('invalid_input', /Only photos can be rotated/));
  await assert.rejects(s.services.processing.rotate('nope', 90), code('not_found', /^No photo with this id\.$/));
  await assert.rejects(s.services.processing.regenerate('nope'), code('not_found', /^No photo with this id\.$/));
  const p = await uploaded(await tinyImage('png', 103), 'p.png');
  await assert.rejects(s.services.processing.rotate(p.id, 45 as 90), code('invalid_input', /90, 180 or 270/));
  assert.deepEqual(
    jobs(p.id).map((j) => j.type),
    ['process-media'],
    'a refused request queues nothing',
  );

  const bad = await uploaded(await damagedJpeg(104), 'bad.jpg');
  assert.equal(bad.status, 'error');
  await assert.rejects(s.services.processing.regenerate(bad.id), code('unprocessable', /could not be processed/));
  await assert.rejects(s.services.processing.rotate(bad.id, 90), code('unprocessable', /could not be processed/));
  assert.equal(row(bad.id).status, 'error');
  const failed = jobs(bad.id).filter((j) => j.type !== 'process-media');
  assert.deepEqual(
    failed.map((j) => [j.type, j.status]),
    [
      ['regenerate', 'failed'],
      ['rotate', 'failed'],
    ],
  );
  assert.ok(failed.every((j) => j.last_error), 'the reason is kept on the job');
});

test('regenerate-all runs every photo through the queue and answers statistics', async () => {
  await s.services.processing.idle();
  const ids = (s.ctx.sqlite.prepare('SELECT id, status FROM photos').all() as { id: string; status: string }[]);
  const broken = ids.filter((p) => p.status === 'error').length;
  assert.ok(ids.length >= 4 && broken >= 1, 'the photos of the tests above');
  const answer = await s.services.processing.regenerateAll();
  assert.deepEqual(answer, { statistics: { processed: ids.length, succeeded: ids.length - broken, failed: broken }, running: false });
  const all = s.ctx.sqlite.prepare("SELECT status, photo_id FROM jobs WHERE type = 'regenerate-all'").all() as any[];
  assert.deepEqual(all, [{ status: 'done', photo_id: null }]);
  for (const p of ids) {
    const last = jobs(p.id).at(-1)!;
    assert.equal(last.type, 'regenerate');
    assert.equal(last.status, p.status === 'error' ? 'failed' : 'done');
  }
});

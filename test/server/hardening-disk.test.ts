import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { sample } from '../helpers/samples.js';
import { hog, smallDisk } from '../helpers/disk.js';
import { startTestServer } from '../helpers/server.js';
import { uploadFile, waitForStatus } from '../helpers/uploads.js';

const mounted = smallDisk('64m', 'the full-disk processing test');
const disk = mounted?.dir;

test('processing on a full disk is retried later, never recorded as a broken file, and completes once space returns', { skip: disk ? false : 'tmpfs cannot be mounted here' }, async () => {
  const dataDir = path.join(disk!, 'data');
  const s = await startTestServer({ MIN_FREE_MB: '0' }, dataDir);
  let other: { stop(): void } | undefined;
  try {
    // Stored while the queue is paused, so its processing meets the full disk.
    await s.services.processing.stop();
    const up = await uploadFile(s.url, sample('hdr_iphone_hdr_YES.jpg'), 'big.jpg');
    assert.equal(up.status, 201, JSON.stringify(up.body));
    other = hog(path.join(disk!, 'other-program.bin'));
    s.services.processing.start();

    const job = () => s.ctx.sqlite.prepare('SELECT status, attempts, last_error FROM jobs WHERE photo_id = ?').get(up.body.photo_id) as { status: string; attempts: number; last_error: string | null };
    const deadline = Date.now() + 15_000;
    while (job().attempts === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(job().attempts, 1, 'the job was taken up on the full disk');
    await new Promise((r) => setTimeout(r, 3000)); // a retry or two, still on a full disk
    // (The database may not be writable either, so the job's row may still say 'running'.)
    assert.notEqual(job().status, 'failed');
    assert.ok(job().attempts <= 1, JSON.stringify(job()));
    // (A small derivative may still get in: the other program fills the disk again every 20 ms, and
    // a failed write frees its space in between. What matters is below: still processing, not broken.)
    const status = (await fetch(`${s.url}/api/photos/${up.body.photo_id}/status`).then((r) => r.json())) as { status: string };
    assert.equal(status.status, 'processing', 'not marked as a broken file');
    assert.equal((await fetch(`${s.url}/api/health`)).status, 200, 'the server runs on');

    other.stop();
    other = undefined;
    assert.equal(await waitForStatus(s.url, up.body.photo_id, 90_000), 'complete', 'done once space is back, without a restart');
  } finally {
    other?.stop();
    await s.close();
    mounted!.unmount();
  }
});

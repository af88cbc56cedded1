import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { sample } from '../helpers/samples.js';
import { startTestServer, tempDir } from '../helpers/server.js';
import { uploadFile, waitForStatus } from '../helpers/uploads.js';

/** A 64 MB tmpfs, or undefined (with a loud note) where this machine may not mount one. */
function smallDisk(): string | undefined {
  const dir = tempDir('wedding-tmpfs-');
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', dir]);
  if (r.status === 0) return dir;
  process.stderr.write(`\n!!! SKIPPING the full-disk processing test: mounting a tmpfs was refused (${r.stderr.toString().trim()})\n\n`);
  return undefined;
}

/**
 * Another program filling the filesystem, and taking whatever space is freed (the server's own
 * space reserve included) until it is stopped; stop() also deletes its file.
 */
function hog(file: string): { stop(): void } {
  const fd = fs.openSync(file, 'w');
  const fillUp = () => {
    for (const size of [1 << 20, 4096, 512]) {
      const block = Buffer.alloc(size, 1);
      for (;;) {
        try {
          fs.writeSync(fd, block);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw e;
        }
      }
    }
  };
  fillUp();
  const timer = setInterval(fillUp, 20);
  return {
    stop() {
      clearInterval(timer);
      fs.closeSync(fd);
      fs.rmSync(file);
    },
  };
}

const disk = smallDisk();

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
    assert.ok(!fs.existsSync(path.join(s.ctx.paths.derived, up.body.photo_id, 'thumb-v1.webp')), 'no derivative could be written');
    const status = (await fetch(`${s.url}/api/photos/${up.body.photo_id}/status`).then((r) => r.json())) as { status: string };
    assert.equal(status.status, 'processing', 'not marked as a broken file');
    assert.equal((await fetch(`${s.url}/api/health`)).status, 200, 'the server runs on');

    other.stop();
    other = undefined;
    assert.equal(await waitForStatus(s.url, up.body.photo_id, 90_000), 'complete', 'done once space is back, without a restart');
  } finally {
    other?.stop();
    await s.close();
    spawnSync('umount', [disk!]);
  }
});

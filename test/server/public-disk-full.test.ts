// A real full disk: DATA_DIR on a 64 MiB tmpfs, filled by another process (dd) until nothing is
// left. The server must stay up, keep serving reads, sign-ins and the admin panel, refuse uploads
// with 507 while keeping what they had received, and take uploads again once space is freed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { NO_ROOM } from '../../server/storage/storage.js';
import { startTestServer, tempDir, TestClient } from '../helpers/server.js';
import { sha256, uploadChunk, uploadFile, waitForStatus, type ChunkForm } from '../helpers/uploads.js';

const MIB = 1024 * 1024;
let mountPoint = '';
let mounted = false;
let s: Awaited<ReturnType<typeof startTestServer>> | undefined;

before(() => {
  mountPoint = tempDir('wedding-tmpfs-');
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', mountPoint]);
  mounted = r.status === 0;
  if (!mounted) {
    process.stderr.write(`\n!!!!!!!! SKIPPING the full-disk test: mounting a tmpfs was refused (${r.stderr?.toString().trim()}). Run it as root. !!!!!!!!\n\n`);
  }
});

after(async () => {
  await s?.close();
  if (mounted) spawnSync('umount', [mountPoint]);
  fs.rmSync(mountPoint, { recursive: true, force: true });
});

/** Another program writing until the disk is full (`leave`: bytes left free). */
function fill(leave = 0): string {
  const file = path.join(mountPoint, `filler-${crypto.randomBytes(4).toString('hex')}`);
  if (leave === 0) {
    spawnSync('dd', ['if=/dev/zero', `of=${file}`, 'bs=64k']);
    const st = fs.statfsSync(mountPoint);
    assert.equal(st.bavail, 0, 'the disk is full');
  } else {
    const st = fs.statfsSync(mountPoint);
    const size = st.bavail * st.bsize - leave;
    spawnSync('dd', ['if=/dev/zero', `of=${file}`, 'bs=4k', `count=${Math.floor(size / 4096)}`]);
  }
  return file;
}

/** A real JPEG padded with random bytes (decoders stop at its end marker) to `size` bytes. */
async function bigJpeg(size: number, seed: number): Promise<Buffer> {
  const jpeg = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: seed, g: 40, b: 90 } } }).jpeg().toBuffer();
  return Buffer.concat([jpeg, crypto.randomBytes(size - jpeg.length)]);
}

const chunk = (data: Buffer, start: number, end: number, uploadId: string): ChunkForm => ({
  chunk_start: start,
  chunk_end: end,
  total_size: data.length,
  filename: `${uploadId}.jpg`,
  session_id: 'full-disk',
  is_last_chunk: end === data.length,
  upload_id: uploadId,
});

test('a disk filled by another program: the site stays up, uploads are 507 and resume once space is freed', async (t) => {
  if (!mounted) return t.skip('tmpfs mount refused (not root)');
  s = await startTestServer({ MIN_FREE_MB: '1' }, mountPoint);
  const base = s.url;
  const sqlite = s.ctx.sqlite;
  const offset = async (id: string) => (await new TestClient(base).get(`/api/upload-chunk/offset?upload_id=${id}`)).body.received_bytes as number;

  // A stored photo, processed, whose bytes must survive everything below.
  const first = await bigJpeg(200_000, 1);
  const a = await uploadFile(base, first, 'first.jpg');
  assert.equal(a.status, 201);
  assert.equal(await waitForStatus(base, a.body.photo_id), 'complete');
  const storedA = path.join(mountPoint, (sqlite.prepare('SELECT stored_path FROM photos WHERE id = ?').get(a.body.photo_id) as any).stored_path);

  // A chunked upload under way.
  const b = await bigJpeg(9 * MIB, 2);
  assert.equal((await uploadChunk(base, b.subarray(0, MIB), chunk(b, 0, MIB, 'big'))).status, 200);

  const filler = fill();

  // Reads, a new sign-in and the admin panel work on the full disk.
  const guest = new TestClient(base);
  assert.equal((await guest.get('/api/health')).status, 200);
  assert.equal((await guest.get('/api/photos')).status, 200);
  const admin = new TestClient(base);
  await admin.login();
  assert.equal((await admin.get('/admin/api/dashboard')).status, 200);
  assert.equal((await admin.post(`/admin/api/photos/${a.body.photo_id}/approve`)).status, 200, 'an admin action is recorded');
  assert.equal((await guest.fetch(`/media/${a.body.photo_id}/thumb`)).status, 200);

  // Uploads: 507 with the contract's sentence; what the chunked one had stays for the resume.
  const resumed = await uploadChunk(base, b.subarray(MIB, 2 * MIB), chunk(b, MIB, 2 * MIB, 'big'));
  assert.equal(resumed.status, 507);
  assert.deepEqual(resumed.body, { success: false, error: NO_ROOM, code: 'storage_full' });
  assert.equal(await offset('big'), MIB, 'the bytes received before are kept');
  const single = await uploadFile(base, await bigJpeg(300_000, 3), 'late.jpg');
  assert.equal(single.status, 507);
  assert.equal(single.body.code, 'storage_full');
  const fresh = await uploadChunk(base, b.subarray(0, MIB), chunk(b, 0, MIB, 'fresh'));
  assert.equal(fresh.status, 507);
  assert.equal((sqlite.prepare(`SELECT count(*) n FROM uploads WHERE upload_key = 'id:fresh'`).get() as { n: number }).n, 0, 'nothing of a refused upload is kept');
  assert.equal(fs.readdirSync(s.ctx.paths.incoming).length, 1, 'only the partial file of the upload under way');

  // Space returns: the same server takes the upload again.
  fs.rmSync(filler);
  assert.equal((await uploadChunk(base, b.subarray(MIB, 2 * MIB), chunk(b, MIB, 2 * MIB, 'big'))).status, 200);
  assert.equal(await offset('big'), 2 * MIB);

  // The disk fills while a chunk is being written: the part that reached the file is kept.
  const filler2 = fill(4 * MIB);
  const cut = await uploadChunk(base, b.subarray(2 * MIB, 8 * MIB), chunk(b, 2 * MIB, 8 * MIB, 'big'));
  assert.equal(cut.status, 507);
  const kept = await offset('big');
  assert.ok(kept > 2 * MIB && kept < 8 * MIB, `part of the cut chunk is kept (${kept} bytes)`);
  const part = path.join(mountPoint, (sqlite.prepare(`SELECT temp_path FROM uploads WHERE upload_key = 'id:big'`).get() as any).temp_path);
  assert.equal(sha256(fs.readFileSync(part).subarray(0, kept)), sha256(b.subarray(0, kept)));
  await new TestClient(base).login(); // a sign-in still works after the cut

  fs.rmSync(filler2);
  const done = await uploadChunk(base, b.subarray(kept), chunk(b, kept, b.length, 'big'));
  assert.equal(done.status, 201, JSON.stringify(done.body));
  const storedB = (sqlite.prepare('SELECT stored_path, sha256 FROM photos WHERE id = ?').get(done.body.photo_id) as any);
  assert.equal(storedB.sha256, sha256(b));
  assert.equal(sha256(fs.readFileSync(path.join(mountPoint, storedB.stored_path))), sha256(b), 'the resumed upload is byte for byte');
  assert.equal((await uploadFile(base, await bigJpeg(300_000, 4), 'after.jpg')).status, 201);
  assert.equal(sha256(fs.readFileSync(storedA)), sha256(first), 'the photo stored before is intact');
});

// Chunked upload of a 500 MB file over loopback vs writing the same bytes to disk, in one run.
// Two baselines: the same 5 MiB chunks written with an fdatasync after each (what the server does
// before it answers a chunk: the goal's baseline), and the same bytes written without syncing.
// Run: npx tsx scripts/bench/upload-throughput.ts [MB]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BenchServer, CHUNK, makeJpegLikeFile, uploadInChunks } from './bench-server.js';

const MB = Number(process.argv[2] ?? 500);
const bytes = MB * 1024 * 1024;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wedding-upload-bench-'));
const source = path.join(work, 'big.jpg');
await makeJpegLikeFile(source, bytes);

/** Baseline: the same bytes, read in 5 MiB pieces and written to a file on the same disk. */
async function diskWrite(): Promise<number> {
  const t = performance.now();
  const fd = fs.openSync(source, 'r');
  const out = fs.createWriteStream(path.join(work, 'copy.bin'));
  const buf = Buffer.alloc(CHUNK);
  for (let pos = 0; pos < bytes; pos += CHUNK) {
    const n = fs.readSync(fd, buf, 0, CHUNK, pos);
    if (!out.write(Buffer.from(buf.subarray(0, n)))) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise((r) => out.end(r));
  fs.closeSync(fd);
  fs.rmSync(path.join(work, 'copy.bin'));
  return (performance.now() - t) / 1000;
}

/** Baseline: each 5 MiB chunk written and fdatasync'd before the next, as the server stores a chunk before its answer. */
async function diskWriteSynced(): Promise<number> {
  const t = performance.now();
  const fd = fs.openSync(source, 'r');
  const copy = await fs.promises.open(path.join(work, 'copy-synced.bin'), 'w');
  const buf = Buffer.alloc(CHUNK);
  for (let pos = 0; pos < bytes; pos += CHUNK) {
    const n = fs.readSync(fd, buf, 0, CHUNK, pos);
    await copy.write(buf, 0, n, pos);
    await copy.datasync();
  }
  await copy.close();
  fs.closeSync(fd);
  fs.rmSync(path.join(work, 'copy-synced.bin'));
  return (performance.now() - t) / 1000;
}

const server = await new BenchServer().start();
try {
  const syncedSeconds = await diskWriteSynced();
  const diskSeconds = await diskWrite();
  const t = performance.now();
  const r = await uploadInChunks(server.url, source, 'bench-throughput');
  const uploadSeconds = (performance.now() - t) / 1000;
  if (r.status !== 201) throw new Error(`upload did not complete: ${JSON.stringify(r.body)}`);
  const disk = MB / diskSeconds;
  const synced = MB / syncedSeconds;
  const upload = MB / uploadSeconds;
  console.log(`file: ${MB} MB, chunks of ${CHUNK / 1024 / 1024} MiB; load average ${os.loadavg()[0].toFixed(1)}`);
  console.log(`baseline, chunks written with an fdatasync each: ${synced.toFixed(1)} MB/s (${syncedSeconds.toFixed(2)} s)`);
  console.log(`baseline, the same bytes written, not synced:    ${disk.toFixed(1)} MB/s (${diskSeconds.toFixed(2)} s)`);
  console.log(`chunked upload:                                  ${upload.toFixed(1)} MB/s (${uploadSeconds.toFixed(2)} s)`);
  console.log(`ratio upload / synced chunks: ${(upload / synced).toFixed(2)} (goal >= 0.7); upload / unsynced writes: ${(upload / disk).toFixed(2)}`);
} finally {
  await server.stop();
  fs.rmSync(work, { recursive: true, force: true });
}

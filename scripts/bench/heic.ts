// iPhone HEIC photos through the server (upload -> complete: decode, EXIF, WebP display image and
// thumbnail) against the chosen decoder alone (Debian's heif-convert to JPEG, the same call the
// server makes) on the same files with the same concurrency, in one run.
// Run: npx tsx scripts/bench/heic.ts [count, default 20]
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sample } from '../../test/helpers/samples.js';
import { pool, timeOnServer, uploadAndWait } from './media-bench.js';

const COUNT = Number(process.argv[2] ?? 20);
const CONCURRENCY = Number(process.env.PROCESSING_CONCURRENCY ?? os.availableParallelism());
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wedding-heic-bench-'));

// Distinct files: a trailing ISO-BMFF 'free' box (ignored by readers) so duplicate detection does not hit.
const sources = ['heic_IMG_5195.HEIC', 'heic_mobile_iphone_13_pro_max.HEIC'].map((f) => fs.readFileSync(sample(f)));
const files = Array.from({ length: COUNT }, (_, i) => {
  const tag = Buffer.from(`bench-${i}-${Date.now()}`);
  const free = Buffer.alloc(8);
  free.writeUInt32BE(8 + tag.length, 0);
  free.write('free', 4, 'latin1');
  const p = path.join(work, `IMG_${1000 + i}.HEIC`);
  fs.writeFileSync(p, Buffer.concat([sources[i % 2], free, tag]));
  return p;
});

async function decoderAlone(): Promise<number> {
  const run = promisify(execFile);
  const t = performance.now();
  await pool(files, CONCURRENCY, async (f) => {
    await run('heif-convert', ['--quiet', '-q', '92', f, `${f}.jpg`]);
  });
  return (performance.now() - t) / 1000;
}

const throughServer = (): Promise<number> => timeOnServer(CONCURRENCY, (base) => pool(files, 3, (f) => uploadAndWait(base, f).then(() => undefined)));

try {
  const alone = await decoderAlone();
  const server = await throughServer();
  console.log(`${COUNT} iPhone HEIC photos (2566x3313 and 4032x3024), processing concurrency ${CONCURRENCY}`);
  console.log(`heif-convert alone (decode only): ${(COUNT / alone).toFixed(2)} photos/s (${alone.toFixed(1)} s)`);
  console.log(`through server (upload -> complete): ${(COUNT / server).toFixed(2)} photos/s (${server.toFixed(1)} s)`);
  console.log(`ratio server/decoder: ${(alone / server).toFixed(2)}`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

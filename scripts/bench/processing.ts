// 50 phone-size JPEGs through the server (upload -> complete) vs sharp alone making the same
// derivatives with the same concurrency, in one run. Run: npx tsx scripts/bench/processing.ts [count]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configureSharp, writeImageDerivatives } from '../../server/processing/sharp.js';
import { sample } from '../../test/helpers/samples.js';
import { pool, timeOnServer, waitComplete } from './media-bench.js';

const COUNT = Number(process.argv[2] ?? 50);
const CONCURRENCY = Number(process.env.PROCESSING_CONCURRENCY ?? os.availableParallelism());
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wedding-processing-bench-'));

// Distinct files (bytes appended after the JPEG end marker) so duplicate detection does not hit.
const sources = ['hdr_iphone_hdr_YES.jpg', 'mobile_jolla.jpg'].map((f) => fs.readFileSync(sample(f)));
const files = Array.from({ length: COUNT }, (_, i) => {
  const p = path.join(work, `phone-${i}.jpg`);
  fs.writeFileSync(p, Buffer.concat([sources[i % 2], Buffer.from(`bench-${i}-${Date.now()}`)]));
  return p;
});

async function sharpAlone(): Promise<number> {
  configureSharp(CONCURRENCY);
  const out = fs.mkdtempSync(path.join(work, 'out-'));
  const t = performance.now();
  await pool(files, CONCURRENCY, async (f) => {
    const base = path.join(out, path.basename(f, '.jpg'));
    await writeImageDerivatives(f, `${base}-display.webp`, `${base}-thumb.webp`);
  });
  return (performance.now() - t) / 1000;
}

/** Single-request uploads (POST /api/upload), then waits for every one to be complete. */
function throughServer(): Promise<number> {
  return timeOnServer(CONCURRENCY, async (base) => {
    const ids: string[] = [];
    // Three uploads at a time, like the guest page.
    await pool(files, 3, async (f) => {
      const form = new FormData();
      form.append('session_id', 'bench');
      form.append('file', new Blob([new Uint8Array(fs.readFileSync(f))]), path.basename(f));
      const res = await fetch(`${base}/api/upload`, { method: 'POST', body: form });
      const body = (await res.json()) as { photo_id: string };
      if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(body)}`);
      ids.push(body.photo_id);
    });
    for (const id of ids) await waitComplete(base, id);
  });
}

try {
  const alone = await sharpAlone();
  const server = await throughServer();
  console.log(`${COUNT} phone JPEGs (3264x2448), processing concurrency ${CONCURRENCY}`);
  console.log(`sharp alone:    ${(COUNT / alone).toFixed(2)} photos/s (${alone.toFixed(1)} s)`);
  console.log(`through server: ${(COUNT / server).toFixed(2)} photos/s (${server.toFixed(1)} s, upload -> complete)`);
  console.log(`ratio server/sharp: ${(alone / server).toFixed(2)} (goal >= 0.8)`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

// Peak RSS of the server process during a 2 GB chunked upload (5 MiB chunks, like the client).
// Run: npx tsx scripts/bench/upload-memory.ts [MB]
import crypto from 'node:crypto';
import { BenchServer, CHUNK, postChunk } from './bench-server.js';

const MB = Number(process.argv[2] ?? 2048);
const total = MB * 1024 * 1024;

const server = await new BenchServer().start();
try {
  await new Promise((r) => setTimeout(r, 1000));
  const baseline = server.rss();
  let peak = baseline;
  const sampler = setInterval(() => (peak = Math.max(peak, server.rss())), 20);

  // Chunk bytes are generated, not read from a source file: only the server's side is measured.
  const pattern = crypto.randomBytes(CHUNK);
  const t = performance.now();
  let last = { status: 0, body: null as any };
  for (let start = 0, i = 0; start < total; start += CHUNK, i++) {
    const end = Math.min(total, start + CHUNK);
    const bytes = pattern.subarray(0, end - start);
    bytes.writeUInt32BE(i, 8); // every chunk differs
    if (start === 0) bytes.set([0xff, 0xd8, 0xff, 0xe0], 0);
    else bytes.set(pattern.subarray(0, 4), 0);
    last = await postChunk(server.url, { chunk_start: start, chunk_end: end, total_size: total, filename: 'big.jpg', session_id: 'bench', is_last_chunk: end === total, upload_id: 'bench-memory' }, bytes);
    if (end === total) console.log(`peak before the last chunk: ${(peak / 1024 / 1024).toFixed(1)} MiB`);
    if (last.status !== 200 && last.status !== 201) throw new Error(`chunk failed: ${last.status} ${JSON.stringify(last.body)}`);
  }
  const seconds = (performance.now() - t) / 1000;
  clearInterval(sampler);
  const mib = (b: number) => (b / 1024 / 1024).toFixed(1);
  console.log(`uploaded ${MB} MB in ${seconds.toFixed(1)} s (${(MB / seconds).toFixed(1)} MB/s), answer ${last.status}`);
  console.log(`server RSS baseline: ${mib(baseline)} MiB`);
  console.log(`server RSS peak:     ${mib(peak)} MiB`);
  console.log(`difference:          ${mib(peak - baseline)} MiB (ratio peak/baseline ${(peak / baseline).toFixed(2)})`);
} finally {
  await server.stop();
}

import fs from 'node:fs';
import path from 'node:path';
import { chunkedUpload } from '../../test/helpers/uploads.js';
import { BenchServer } from './bench-server.js';

/** Runs `fn` over `items`, `n` at a time. */
export async function pool<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/** Seconds `fn` takes against a fresh server with this processing concurrency; the server stops however it ends. */
export async function timeOnServer(concurrency: number, fn: (base: string) => Promise<void>): Promise<number> {
  const server = await new BenchServer({ PROCESSING_CONCURRENCY: String(concurrency) }).start();
  try {
    const t = performance.now();
    await fn(server.url);
    return (performance.now() - t) / 1000;
  } finally {
    await server.stop();
  }
}

/** Uploads a file as a guest's browser does (5 MiB pieces); returns its id. */
export async function upload(base: string, file: string): Promise<string> {
  const r = await chunkedUpload(base, fs.readFileSync(file), { chunkSize: 5 * 1024 * 1024, filename: path.basename(file), sessionId: 'bench', uploadId: `bench-${Math.random()}` });
  if (r.status !== 201) throw new Error(`upload failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.photo_id as string;
}

/** Uploads a file and waits until its processing is complete; returns its id. */
export async function uploadAndWait(base: string, file: string): Promise<string> {
  const id = await upload(base, file);
  await waitComplete(base, id);
  return id;
}

export async function waitComplete(base: string, id: string): Promise<void> {
  for (;;) {
    const s = (await (await fetch(`${base}/api/photos/${id}/status`)).json()) as { status: string };
    if (s.status === 'error') throw new Error(`photo ${id} failed`);
    if (s.status === 'complete') return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

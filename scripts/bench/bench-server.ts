import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { YOUNG_GENERATION_OPTION } from '../../server/young-generation.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * jemalloc, which the image preloads for every process (Dockerfile: sharp's docs recommend it over
 * glibc's allocator for long-running processes), where this machine has it (Debian: libjemalloc2).
 */
export function jemallocPath(): string | undefined {
  const candidates = ['/usr/local/lib/libjemalloc.so.2', `/usr/lib/${os.arch() === 'arm64' ? 'aarch64' : 'x86_64'}-linux-gnu/libjemalloc.so.2`];
  return candidates.find((f) => fs.existsSync(f));
}

/** A port for a benchmark's server, below Linux's ephemeral range (32768+) that outgoing connections take. */
export function benchPort(): number {
  return 21000 + Math.floor(Math.random() * 11000);
}

/** The real server in its own process (so the benchmark's client does not share its event loop). */
export class BenchServer {
  child!: ChildProcess;
  url = '';
  readonly dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wedding-bench-'));

  constructor(private readonly env: Record<string, string> = {}) {}

  async start(): Promise<this> {
    const port = benchPort();
    const built = path.join(ROOT, 'dist/server/main.js');
    const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];
    const args = fs.existsSync(built) ? [...prof, built] : ['--import', 'tsx', '--import', path.join(ROOT, 'scripts/i18n/register.mjs'), path.join(ROOT, 'server/main.ts')];
    this.child = spawn(process.execPath, args, {
      cwd: ROOT,
      // NODE_OPTIONS as the image sets it (server/young-generation.ts), unless the caller set its own.
      env: { ...process.env, NODE_OPTIONS: process.env.NODE_OPTIONS ?? YOUNG_GENERATION_OPTION, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: this.dataDir, ADMIN_PASSWORD: 'bench-password-123', LOG_LEVEL: 'warn', ...this.env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    this.url = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 900; i++) {
      try {
        if ((await fetch(`${this.url}/api/health`)).ok) return this;
      } catch {
        /* starting */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error("bench server did not start within 90 s");
  }

  /** Resident set size of the server process, in bytes (Linux /proc). */
  rss(): number {
    return rssOf(this.child.pid!);
  }

  /** The RSS of the server's media worker (processing runs there), in bytes; 0 while none runs. */
  workerRss(): number {
    // Its direct child only: a process the worker has just forked to run ffmpeg carries the
    // worker's command line and a copy of its page tables until it execs, and would count twice.
    return this.workerPids().reduce((sum, pid) => sum + rssOf(pid), 0);
  }

  /** The media worker's process id(s): none until the first job started it. */
  workerPids(): number[] {
    return children(this.child.pid!).filter((pid) => readOr(`/proc/${pid}/cmdline`).includes('media-worker'));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.child.once('exit', () => resolve());
      this.child.kill('SIGTERM');
    });
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** A file of `bytes` that sniffs as a JPEG (random body: nothing to compress or dedupe). */
export async function makeJpegLikeFile(file: string, bytes: number): Promise<void> {
  const out = fs.createWriteStream(file);
  const block = Buffer.alloc(8 << 20);
  let left = bytes;
  let first = true;
  while (left > 0) {
    const n = Math.min(left, block.length);
    const b = Buffer.from(crypto.getRandomValues(new Uint8Array(Math.min(n, 65536))));
    const chunk = Buffer.alloc(n);
    for (let o = 0; o < n; o += b.length) b.copy(chunk, o, 0, Math.min(b.length, n - o));
    chunk.writeUInt32BE(left, 0); // blocks differ from each other
    if (first) {
      chunk[0] = 0xff;
      chunk[1] = 0xd8;
      chunk[2] = 0xff;
      chunk[3] = 0xe0;
      first = false;
    }
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
    left -= n;
  }
  await new Promise<void>((r, j) => out.end((e?: Error) => (e ? j(e) : r())));
}

export const CHUNK = 5 * 1024 * 1024;

const agent = new http.Agent({ keepAlive: true });

/**
 * POSTs one multipart chunk with node:http (fields first, then the bytes). undici's FormData
 * encoder tops out near 40 MB/s here, which would measure the client instead of the server.
 */
export function postChunk(base: string, fields: Record<string, string | number | boolean>, bytes: Buffer): Promise<{ status: number; body: any }> {
  const boundary = `----bench${Math.random().toString(16).slice(2)}`;
  let head = '';
  for (const [k, v] of Object.entries(fields)) head += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const url = new URL(`${base}/api/upload-chunk`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': Buffer.byteLength(head) + bytes.length + Buffer.byteLength(tail) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.write(head);
    req.write(bytes);
    req.end(tail);
  });
}

/** Sends a file the way the client does: 5 MiB chunks, fields first, one after another. */
export async function uploadInChunks(base: string, file: string, uploadId: string, onChunk?: () => void): Promise<{ status: number; body: any }> {
  const size = fs.statSync(file).size;
  const fd = fs.openSync(file, 'r');
  let last: { status: number; body: any } = { status: 0, body: null };
  const buf = Buffer.alloc(CHUNK);
  try {
    for (let start = 0; start < size; start += CHUNK) {
      const end = Math.min(size, start + CHUNK);
      const n = fs.readSync(fd, buf, 0, end - start, start);
      last = await postChunk(base, { chunk_start: start, chunk_end: end, total_size: size, filename: path.basename(file), session_id: 'bench', is_last_chunk: end === size, upload_id: uploadId }, buf.subarray(0, n));
      if (last.status !== 200 && last.status !== 201) throw new Error(`chunk ${start} failed: ${last.status} ${JSON.stringify(last.body)}`);
      onChunk?.();
    }
  } finally {
    fs.closeSync(fd);
  }
  return last;
}

const readOr = (file: string) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return ''; // the process ended
  }
};

function rssOf(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readOr(`/proc/${pid}/status`))?.[1] ?? 0) * 1024;
}

/** The processes `pid` started (Linux /proc/<pid>/task/<tid>/children). */
export function children(pid: number): number[] {
  const tasks = fs.existsSync(`/proc/${pid}/task`) ? fs.readdirSync(`/proc/${pid}/task`) : [];
  return tasks.flatMap((t) => readOr(`/proc/${pid}/task/${t}/children`).trim().split(' ').filter(Boolean).map(Number));
}

import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestClient } from '../helpers/server.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function sha256(data: Buffer | string): string {
  return crypto.createHash('sha256').update(typeof data === 'string' ? fs.readFileSync(data) : data).digest('hex');
}

/** Runs a built CLI (dist/server/<name>.js) the way a person would; resolves with its exit and output. */
export function runCli(name: 'backup' | 'restore', args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  const script = path.join(ROOT, 'dist/server', `${name}.js`);
  if (!fs.existsSync(script)) throw new Error(`${script} is missing: run node scripts/build.mjs first`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out }));
  });
}

export async function uploadFile(base: string, file: string, bytes = fs.readFileSync(file)): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('session_id', 'backup-test');
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), path.basename(file));
  const res = await fetch(base + '/api/upload', { method: 'POST', body: form });
  return { status: res.status, body: await res.json() };
}

export interface ListedPhoto {
  id: string;
  original_filename: string;
  status: string;
  thumbnail_url: string | null;
}

export async function allPhotos(admin: TestClient): Promise<ListedPhoto[]> {
  // Every page: on a slow machine the racing uploads alone pass the 100 of one page.
  const photos: ListedPhoto[] = [];
  for (let page = 1; ; page++) {
    const r = await admin.get(`/admin/api/photos?page=${page}&per_page=100&show_all=true`);
    if (r.status !== 200) throw new Error(`photo list: ${r.status} ${JSON.stringify(r.body)}`);
    photos.push(...r.body.photos);
    if (page >= r.body.pagination.pages) return photos;
  }
}

/** The original bytes as an admin downloads them. */
export async function originalBytes(admin: TestClient, id: string): Promise<Buffer> {
  const link = await admin.get(`/admin/api/photos/${encodeURIComponent(id)}/download`);
  if (link.status !== 200) throw new Error(`download link for ${id}: ${link.status} ${JSON.stringify(link.body)}`);
  const res = await admin.fetch(link.body.download_url);
  if (res.status !== 200) throw new Error(`download ${id}: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

export async function waitFor<T>(what: string, fn: () => Promise<T | undefined | false>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A multipart POST (fields first, then the file) whose file is sent in two halves, like a phone
 * on a slow connection: the request stays open until `finish()`; `answer` settles with the reply
 * or with the connection's error.
 */
export function slowPost(url: string, fields: Record<string, string>, file: { bytes: Buffer; filename: string; type: string }) {
  const boundary = '----wedding' + crypto.randomBytes(8).toString('hex');
  const head = Buffer.from(
    Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const half = Math.floor(file.bytes.length / 2);
  const u = new URL(url);
  const req = http.request({
    host: u.hostname,
    port: u.port,
    path: u.pathname,
    method: 'POST',
    // A keep-alive connection, as phones and browsers use.
    agent: new http.Agent({ keepAlive: true }),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + file.bytes.length + tail.length },
  });
  const answer = new Promise<{ status: number; body: any } | { error: string }>((resolve) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text || '{}') }));
      res.on('error', (e) => resolve({ error: e.message }));
    });
    req.on('error', (e) => resolve({ error: e.message }));
  });
  req.write(head);
  req.write(file.bytes.subarray(0, half));
  return {
    answer,
    finish() {
      req.write(file.bytes.subarray(half));
      req.end(tail);
    },
  };
}

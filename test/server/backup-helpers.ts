import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
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

export async function uploadFile(base: string, file: string, sessionId = 'backup-test'): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('session_id', sessionId);
  form.append('file', new Blob([fs.readFileSync(file)], { type: 'image/jpeg' }), path.basename(file));
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
  const r = await admin.get('/admin/api/photos?page=1&per_page=100&show_all=true');
  if (r.status !== 200) throw new Error(`photo list: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.photos;
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

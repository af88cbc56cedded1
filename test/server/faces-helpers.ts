import fs from 'node:fs';
import path from 'node:path';
import { waitFor } from './backup-helpers.js';
import type { TestClient, TestServer } from '../helpers/server.js';
import { guestUpload, type Answer } from './guests-helpers.js';

/** One face of group photo 1 (the second woman from the left), relative to the picture: the selfie's source. */
export const FACE_IN_PHOTO_1 = { x: 0.4365, y: 0.3287, width: 0.0971, height: 0.178 };

export async function sendSelfie(c: TestClient, bytes: Buffer | undefined, consent: string | undefined, type = 'image/jpeg'): Promise<Answer> {
  const form = new FormData();
  if (consent !== undefined) form.append('consent', consent);
  if (bytes) form.append('selfie', new Blob([new Uint8Array(bytes)], { type }), 'selfie.jpg');
  const res = await c.fetch('/api/faces/me', { method: 'POST', body: form });
  return { status: res.status, body: await res.json() };
}

/** Uploads a photo as this guest, waits for its processing, and approves it (admin). */
export async function uploadVisible(guest: TestClient, admin: TestClient, file: string | Buffer, name: string, approve = true): Promise<string> {
  const bytes = typeof file === 'string' ? fs.readFileSync(file) : file;
  const r = await guestUpload(guest, bytes, name);
  if (r.status !== 201) throw new Error(`upload ${name}: ${r.status} ${JSON.stringify(r.body)}`);
  // Generous: on a machine busy with other work the media worker may take a while.
  await waitFor('processing', async () => (await guest.get(`/api/photos/${r.body.photo_id}/status`)).body.status !== 'processing', 900_000);
  if (approve) {
    const a = await admin.post(`/admin/api/photos/${r.body.photo_id}/approve`);
    if (a.status !== 200) throw new Error(`approve ${name}: ${a.status}`);
  }
  return r.body.photo_id;
}

/**
 * GET /api/faces/me until the scan has gone through everything (or `until` holds). Generous: the
 * face workers run at the lowest priority, and on a busy machine get only what is left.
 */
export function searchDone(c: TestClient, until: (body: any) => boolean = (b) => !b.searching): Promise<any> {
  return waitFor(
    'the face search to finish',
    async () => {
      const r = await c.get('/api/faces/me');
      if (r.status !== 200) throw new Error(`GET /api/faces/me: ${r.status} ${JSON.stringify(r.body)}`);
      return until(r.body) ? r.body : undefined;
    },
    900_000,
  );
}

/** Every file under `dir` (the database and its WAL included). */
export function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => path.join(d.parentPath ?? (d as any).path, d.name));
}

/** Whether any file under `dir` holds `needle`. */
export function anyFileHolds(dir: string, needle: Buffer): string | undefined {
  return filesUnder(dir).find((f) => fs.readFileSync(f).includes(needle));
}

export const faceRows = (s: TestServer, table: 'face_guests' | 'face_matches' | 'face_boxes') =>
  (s.ctx.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

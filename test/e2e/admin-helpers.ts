import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { sample } from '../helpers/samples.js';

/** Uploads a sample the way a guest's browser does and waits until processing has finished. */
export async function uploadAsGuest(base: string, name: string, type = 'image/jpeg'): Promise<string> {
  const fd = new FormData();
  fd.append('session_id', 'admin-e2e-session');
  fd.append('file', new Blob([fs.readFileSync(sample(name))], { type }), path.basename(name));
  const res = await fetch(base + '/api/upload', { method: 'POST', body: fd });
  const body = (await res.json()) as { success: boolean; photo_id: string };
  if (res.status !== 201 || !body.success) throw new Error(`upload of ${name} failed: ${res.status} ${JSON.stringify(body)}`);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const s = (await (await fetch(`${base}/api/photos/${body.photo_id}/status`)).json()) as { status: string };
    if (s.status === 'complete') return body.photo_id;
    if (s.status === 'error') throw new Error(`processing of ${name} failed`);
    if (Date.now() > deadline) throw new Error(`processing of ${name} did not finish`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The card of one photo (All mode or queue), found by its file name. */
export const cardOf = (page: Page, testId: 'photo-card' | 'approval-card', fileName: string) =>
  page.getByTestId(testId).filter({ hasText: fileName });

export async function publicIds(base: string): Promise<string[]> {
  const r = (await (await fetch(`${base}/api/photos?limit=100`)).json()) as { photos: { id: string }[] };
  return r.photos.map((p) => p.id);
}

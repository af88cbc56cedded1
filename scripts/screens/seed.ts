// Sample data for screenshots of the real site (the translators' pages and the README's pictures):
// guests' photos from test/fixtures, uploaded, processed and partly approved as on the day.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { sample } from '../../test/helpers/samples.js';
import { adminClient, type TestClient } from '../../test/helpers/server.js';
import { waitProcessed } from '../../test/e2e/wall-helpers.js';

/** A guest's upload with a name, as the upload page sends it; returns the photo id. */
export async function upload(base: string, file: string, name: string): Promise<string> {
  const fd = new FormData();
  fd.append('session_id', 'screens');
  fd.append('uploader_name', name);
  fd.append('file', new Blob([fs.readFileSync(file)], { type: 'image/jpeg' }), path.basename(file));
  const body = (await (await fetch(`${base}/api/upload`, { method: 'POST', body: fd })).json()) as { photo_id: string };
  return body.photo_id;
}

/**
 * Photos from named guests (`approved` of them approved, the rest waiting), names shown, and the
 * second schedule item timed around the photos' dates so the gallery offers its moment filter.
 */
export async function seed(base: string, files: { file: string; by: string }[], approved: number): Promise<{ admin: TestClient; ids: string[] }> {
  const admin = await adminClient(base);
  const { body } = await admin.get('/admin/api/settings');
  const schedule = body.settings.schedule.map((item: object, i: number) => (i === 1 ? { ...item, starts_at: '2008-01-01T00:00:00+00:00', ends_at: '2008-12-31T00:00:00+00:00' } : item));
  const put = await admin.put('/admin/api/settings', { show_uploader_names: true, schedule });
  if (put.status !== 200) throw new Error(`settings: ${JSON.stringify(put.body)}`);
  const ids: string[] = [];
  for (const f of files) ids.push(await upload(base, sample(f.file), f.by));
  for (const id of ids) await waitProcessed(base, id);
  for (const id of ids.slice(0, approved)) await admin.post(`/admin/api/photos/${id}/approve`);
  return { admin, ids };
}

/** Waits until the page has nothing left to load and its fonts are in. */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

// Sample data for screenshots of the real site (the translators' pages and the README's pictures):
// guests' photos, uploaded, processed and partly approved as on the day.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { sample } from '../../test/helpers/samples.js';
import { adminClient, type TestClient } from '../../test/helpers/server.js';
import { waitProcessed } from '../../test/e2e/wall-helpers.js';

/** A guest's photo: a file in test/fixtures or a full path, who sends it, and the name their phone gives it. */
export interface GuestPhoto {
  file: string;
  by: string;
  as?: string;
}

/** When each schedule item took place (by position), for the gallery's moment filter; `zone`: the wedding's time zone. */
export interface Moments {
  zone?: string;
  windows: ({ starts_at: string; ends_at: string } | null)[];
}

/** The test/fixtures photos are from 2008: the second schedule item covers that year. */
const FIXTURE_MOMENTS: Moments = { windows: [null, { starts_at: '2008-01-01T00:00:00+00:00', ends_at: '2008-12-31T00:00:00+00:00' }] };

const fileOf = (f: GuestPhoto) => (path.isAbsolute(f.file) ? f.file : sample(f.file));

/** A guest's upload with a name, as the upload page sends it; returns the photo id. */
export async function upload(base: string, file: string, name: string, as = path.basename(file)): Promise<string> {
  const fd = new FormData();
  fd.append('session_id', 'screens');
  fd.append('uploader_name', name);
  fd.append('file', new Blob([fs.readFileSync(file)], { type: 'image/jpeg' }), as);
  const body = (await (await fetch(`${base}/api/upload`, { method: 'POST', body: fd })).json()) as { photo_id: string };
  return body.photo_id;
}

/**
 * Photos from named guests (`approved` of them approved, the rest waiting), names shown, and the
 * schedule items timed around the photos' dates so the gallery offers its moment filter.
 */
export async function seed(base: string, files: GuestPhoto[], approved: number, moments = FIXTURE_MOMENTS): Promise<{ admin: TestClient; ids: string[] }> {
  const admin = await adminClient(base);
  const { body } = await admin.get('/admin/api/settings');
  const schedule = body.settings.schedule.map((item: object, i: number) => ({ ...item, ...moments.windows[i] }));
  const zone = moments.zone ? { time_zone: moments.zone } : {};
  const put = await admin.put('/admin/api/settings', { show_uploader_names: true, schedule, ...zone });
  if (put.status !== 200) throw new Error(`settings: ${JSON.stringify(put.body)}`);
  const ids: string[] = [];
  for (const f of files) ids.push(await upload(base, fileOf(f), f.by, f.as));
  for (const id of ids) await waitProcessed(base, id);
  for (const id of ids.slice(0, approved)) await admin.post(`/admin/api/photos/${id}/approve`);
  return { admin, ids };
}

/** Waits until the page has nothing left to load and its fonts are in. */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

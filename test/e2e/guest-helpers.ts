import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { TestClient } from '../helpers/server.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('guest-e2e-media-');

/** A real H.264 MP4 made by ffmpeg: a short playable clip, or a lossless one that is large. */
export function makeVideo(name: string, opts: { seconds: number; size: string; lossless?: boolean }): string {
  const out = path.join(dir, name);
  const codec = opts.lossless ? ['-qp', '0', '-preset', 'ultrafast'] : ['-preset', 'veryfast', '-profile:v', 'main'];
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${opts.size}:rate=25`, '-t', String(opts.seconds), '-c:v', 'libx264', ...codec, '-pix_fmt', 'yuv420p', '-movflags', '+faststart', out]);
  return out;
}

/** The upload row of a file, by its name. */
export const row = (page: Page, name: string) => page.locator('.upload-item').filter({ has: page.locator('.upload-item-name', { hasText: name }) });

export async function waitStatus(page: Page, name: string, status: string, timeout = 60_000): Promise<void> {
  await row(page, name).and(page.locator(`[data-status="${status}"]`)).waitFor({ timeout });
}

/** Admin listing of every photo, hidden ones included. */
export async function adminPhotos(admin: TestClient): Promise<{ id: string; original_filename: string; file_size: number; is_visible: boolean }[]> {
  const r = await admin.get('/admin/api/photos?page=1&per_page=100&show_all=true');
  if (r.status !== 200) throw new Error(`admin photos: ${r.status}`);
  return r.body.photos;
}

/** The gallery's photo tiles once its first page has arrived (the loading skeleton is a .gallery-grid too, marked aria-busy). */
export const galleryTiles = (page: Page) => page.locator('.gallery-grid:not([aria-busy]) li');

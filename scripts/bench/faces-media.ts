// The pictures bench:faces scans, made in memory (/dev/shm) from the six real group photos of
// test/fixtures: 12 MP phone photos, and a gallery of display copies (1920 px WebP, what the
// face search reads) in which one guest appears in every sixth photo.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { GROUP_PHOTOS } from '../../test/helpers/faces.js';

export const PHONE_W = 4032;
export const PHONE_H = 3024;

/** Photo `i`'s look: which group photo, mirrored or not, which part of it, how bright. */
function variation(i: number) {
  return { source: GROUP_PHOTOS[i % 6], flip: Math.floor(i / 6) % 2 === 1, zoom: 1 + ((i * 7) % 5) * 0.06, light: 0.85 + ((i * 3) % 7) * 0.05, shift: (i * 13) % 11 };
}

async function render(i: number, width: number, height: number): Promise<Sharp> {
  const v = variation(i);
  const w = Math.round(width * v.zoom);
  const h = Math.round(height * v.zoom);
  let img = sharp(await sharp(v.source).resize(w, h, { fit: 'cover' }).toBuffer()).extract({
    left: Math.round(((w - width) * v.shift) / 10),
    top: Math.round((h - height) / 2),
    width,
    height,
  });
  if (v.flip) img = img.flop();
  return img.modulate({ brightness: v.light });
}

/** `count` 12 MP phone JPEGs (4032x3024) in `dir`. */
export async function phonePhotos(dir: string, count: number): Promise<string[]> {
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const file = path.join(dir, `phone-${i}.jpg`);
    await (await render(i, PHONE_W, PHONE_H)).jpeg({ quality: 90 }).toFile(file);
    files.push(file);
  }
  return files;
}

/** Does gallery photo `i` show the guest (a face of group photo 1)? */
export const showsGuest = (i: number) => i % 6 === 0;

/**
 * A gallery of `count` visible photos seeded straight into the database of a server that is not
 * running: display copies and thumbnails on disk, rows in `photos`. Newest first is index 0.
 */
export async function seedGallery(dataDir: string, sqlite: import('../../server/db/open.js').Sqlite, count: number): Promise<string[]> {
  const insert = sqlite.prepare(`INSERT INTO photos (id, original_filename, stored_path, content_type, file_size, sha256, width, height,
    status, thumb_path, display_path, derivative_version, is_visible, upload_timestamp)
    VALUES (?, ?, ?, 'image/jpeg', 3000000, ?, 1920, 1440, 'complete', ?, ?, 1, 1, ?)`);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `bench${String(i).padStart(5, '0')}${crypto.randomBytes(6).toString('hex')}`;
    const dir = path.join(dataDir, 'media', 'derived', id);
    fs.mkdirSync(dir, { recursive: true });
    const display = await (await render(i, 1920, 1440)).webp({ quality: 80, effort: 0 }).toBuffer();
    fs.writeFileSync(path.join(dir, 'display-v1.webp'), display);
    await sharp(display).resize(480).webp({ effort: 0 }).toFile(path.join(dir, 'thumb-v1.webp'));
    const at = new Date(Date.UTC(2026, 5, 20, 20) - i * 1000).toISOString();
    insert.run(id, `IMG_${i}.jpg`, `media/originals/${id}.jpg`, crypto.randomBytes(32).toString('hex'), `media/derived/${id}/thumb-v1.webp`, `media/derived/${id}/display-v1.webp`, at);
    ids.push(id);
  }
  return ids;
}

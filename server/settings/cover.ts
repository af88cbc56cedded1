import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DataPaths } from '../context.js';
import { invalid, tooLarge, unsupportedType } from '../errors.js';
import { writeImageDerivatives } from '../processing/sharp.js';
import { sniffFile } from '../uploads/sniff.js';
import type { ReadForm } from '../uploads/streams.js';
import type { SettingsService } from './settings.service.js';

/** A cover is one picture: a phone's photo or an exported design fits easily. */
export const COVER_MAX_BYTES = 40 * 1024 * 1024;
const COVER_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif']);
const COVER_FILE = /^([a-f0-9-]{36})\.webp$/;

/** The uploaded cover lives with the photos' derivatives (so backups carry it), never in the photos table. */
export const coverDir = (paths: DataPaths) => path.join(paths.derived, 'cover');

/** The stored cover a requested file name stands for, or null when it names none. */
export function coverFile(paths: DataPaths, name: string): string | null {
  const m = COVER_FILE.exec(name);
  return m ? path.join(coverDir(paths), `${m[1]}.webp`) : null;
}

function limitTo(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      cb(seen > max ? tooLarge('errors.settings.cover_too_large', { mb: max / 1024 / 1024 }) : null, chunk);
    },
  });
}

/**
 * Stores the image of the form `readForm` reads as the cover: streamed to a temporary file, its
 * type read from its bytes, then made upright, resized and stripped of metadata like a photo's
 * display copy. Returns the cover's id.
 */
export async function storeCover(paths: DataPaths, readForm: ReadForm): Promise<string> {
  const id = crypto.randomUUID();
  fs.mkdirSync(paths.incoming, { recursive: true });
  fs.mkdirSync(coverDir(paths), { recursive: true });
  const tmp = path.join(paths.incoming, `cover-${id}`);
  try {
    const { sawFile } = await readForm((file) => pipeline(file, limitTo(COVER_MAX_BYTES), fs.createWriteStream(tmp)));
    if (!sawFile) throw invalid('errors.settings.cover_missing');
    const type = await sniffFile(tmp);
    if (!type || !COVER_TYPES.has(type.mime)) throw unsupportedType('errors.settings.cover_type');
    const display = path.join(coverDir(paths), `${id}.webp`);
    await writeImageDerivatives(tmp, display, path.join(coverDir(paths), `${id}-thumb.webp`)).catch(async () => {
      await removeCover(paths, id);
      throw invalid('errors.settings.cover_unreadable');
    });
    return id;
  } finally {
    await fsp.rm(tmp, { force: true });
  }
}

async function removeCover(paths: DataPaths, id: string | null): Promise<void> {
  if (!id) return;
  await Promise.all([`${id}.webp`, `${id}-thumb.webp`].map((f) => fsp.rm(path.join(coverDir(paths), f), { force: true })));
}

/** An uploaded cover that stops being the cover (replaced, removed, a photo chosen) is deleted. */
export function removeReplacedCovers(settings: SettingsService, paths: DataPaths): void {
  settings.onChange((next, previous) => {
    if (previous.cover_image && previous.cover_image !== next.cover_image) return removeCover(paths, previous.cover_image);
  });
}

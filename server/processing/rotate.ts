import fs from 'node:fs/promises';
import path from 'node:path';
import type { DataPaths } from '../context.js';
import type { PhotoRow, PhotoUpdate } from '../db/schema.js';
import { AppError, invalid } from '../errors.js';
import { composeOrientation, findOrientation, setJpegOrientation } from './jpeg-orientation.js';
import { needsHeifDecoder } from './heif.js';
import { DEFAULT_STEP_LIMIT_MS, StepTimeoutError, withinLimit } from './limits.js';
import { reencodeJpegWithOrientation, writeRotatedCopy } from './sharp.js';

async function jpegOrientation(file: string): Promise<number> {
  const h = await fs.open(file, 'r');
  try {
    const head = Buffer.alloc(256 * 1024);
    const { bytesRead } = await h.read(head, 0, head.length, 0);
    return findOrientation(head.subarray(0, bytesRead)).slot?.value ?? 1;
  } finally {
    await h.close();
  }
}

/** The format a rotated non-JPEG original is written back in: its own. */
const REENCODED_AS: Record<string, 'png' | 'gif' | 'avif' | 'webp'> = { 'image/png': 'png', 'image/gif': 'gif', 'image/avif': 'avif', 'image/webp': 'webp' };

/**
 * Turns a stored photo clockwise on top of how it is displayed now. A JPEG keeps its image
 * data byte for byte: only its EXIF orientation changes. Other images are re-encoded turned,
 * at high quality, through a temporary file. Returns the row fields that change.
 */
export async function rotateOriginal(paths: DataPaths, photo: PhotoRow, degrees: number, stepMs = DEFAULT_STEP_LIMIT_MS): Promise<PhotoUpdate> {
  if (photo.content_type.startsWith('video/')) throw invalid('errors.processing.rotate_video');
  if (![90, 180, 270].includes(degrees)) throw invalid('errors.processing.bad_rotation');
  // No HEVC encoder here: a HEIC could only be rotated by changing its format.
  if (needsHeifDecoder(photo.content_type)) throw invalid('errors.processing.rotate_heic');
  const file = path.join(paths.root, photo.stored_path);
  const tmp = `${file}.rotating`;
  let orientation = 1;
  try {
    if (photo.content_type === 'image/jpeg') {
      orientation = composeOrientation(await jpegOrientation(file), degrees);
      if (!(await setJpegOrientation(file, orientation))) {
        await withinLimit('Turning the photo', stepMs, reencodeJpegWithOrientation(file, tmp, orientation));
        await fs.rename(tmp, file);
      }
    } else {
      const format = REENCODED_AS[photo.content_type] ?? 'webp';
      await withinLimit('Turning the photo', stepMs, writeRotatedCopy(file, tmp, degrees, format));
      await fs.rename(tmp, file);
    }
  } catch (e) {
    await fs.rm(tmp, { force: true });
    if (e instanceof StepTimeoutError) throw e;
    throw new AppError('unprocessable', 'errors.processing.rotate_failed', { detail: e instanceof Error ? e.message.split('\n')[0] : String(e) });
  }
  const { size } = await fs.stat(file);
  return { file_size: size, rotation: (photo.rotation + degrees) % 360, orientation };
}

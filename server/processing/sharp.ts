import os from 'node:os';
import sharp from 'sharp';
import { measurePixels, type ImageMeasures, type RawImage } from './quality.js';

/** Long side of the grid thumbnail and of the viewer's display image. */
export const THUMB_PX = 480;
export const DISPLAY_PX = 1920;

// Damaged image data must be an error, not a grey picture.
const INPUT = { failOn: 'error' as const };

/**
 * Jobs already run side by side, so each image gets a share of the cores rather than all of
 * them; libvips' operation cache is off because originals are rewritten in place by rotation.
 * This runs in the media worker (server/media-worker.ts), a process below the requests' priority.
 */
export function configureSharp(jobsAtOnce: number): void {
  sharp.concurrency(Math.max(1, Math.round(os.availableParallelism() / Math.max(1, jobsAtOnce))));
  sharp.cache(false);
}

export interface ImageFacts {
  /** As displayed (EXIF orientation applied). */
  width: number;
  height: number;
  orientation: number | null;
}

/** `upright`: the pixels are as displayed already (a decoded HEIF), whatever its EXIF says. */
export async function imageFacts(file: string, upright = false): Promise<ImageFacts> {
  const m = await sharp(file, INPUT).metadata();
  if (!m.width || !m.height) throw new Error('The image has no dimensions');
  if (upright) return { width: m.width, height: m.height, orientation: null };
  const o = m.orientation ?? null;
  const swap = o !== null && o >= 5 && o <= 8;
  return { width: swap ? m.height : m.width, height: swap ? m.width : m.height, orientation: o };
}

const inside = (px: number) => ({ width: px, height: px, fit: 'inside' as const, withoutEnlargement: true });

/**
 * Writes the display image and the thumbnail as WebP: upright (EXIF orientation applied, unless
 * the pixels are `upright` already, as a HEIF decoder gives them) and without any metadata (sharp
 * copies none unless asked: no GPS, no camera serials).
 * The original is decoded once; the thumbnail is made from the display-size pixels, and so are
 * the measures of similar shots and quality (quality.ts), unless `measure` is false.
 */
export async function writeImageDerivatives(
  input: string | Buffer,
  displayOut: string,
  thumbOut: string,
  upright = false,
  measure = true,
): Promise<ImageMeasures | null> {
  const decoded = sharp(input, INPUT);
  const { data, info } = await (upright ? decoded : decoded.rotate())
    .resize(inside(DISPLAY_PX))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const [, , measures] = await Promise.all([
    sharp(data, raw).webp({ quality: 82, effort: 2 }).toFile(displayOut),
    sharp(data, raw).resize(inside(THUMB_PX)).webp({ quality: 78, effort: 2 }).toFile(thumbOut),
    measure ? measurePixels(data, raw.raw as RawImage) : null,
  ]);
  return measures;
}

/** Re-encodes a non-JPEG image turned clockwise, in its own format at high quality. */
export async function writeRotatedCopy(input: string, output: string, degrees: number, format: 'png' | 'gif' | 'webp' | 'avif'): Promise<void> {
  const img = sharp(input, { ...INPUT, animated: format === 'gif' || format === 'webp' }).rotate().rotate(degrees);
  if (format === 'png') await img.png({ compressionLevel: 6 }).toFile(output);
  else if (format === 'gif') await img.gif().toFile(output);
  else if (format === 'avif') await img.avif({ quality: 80 }).toFile(output);
  else await img.webp({ quality: 95 }).toFile(output);
}

/** Sets the orientation tag of a JPEG by re-encoding it at quality 95 (last resort when the EXIF cannot be edited). */
export async function reencodeJpegWithOrientation(input: string, output: string, orientation: number): Promise<void> {
  await sharp(input, INPUT).jpeg({ quality: 95, chromaSubsampling: '4:4:4' }).withMetadata({ orientation }).toFile(output);
}

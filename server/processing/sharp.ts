import fs from 'node:fs/promises';
import os from 'node:os';
import sharp from 'sharp';
import type { Metadata, Sharp } from 'sharp';
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

/** Size as displayed and orientation from a header; `upright`: the pixels are as displayed already (a decoded HEIF), whatever its EXIF says. */
function factsOf(m: Metadata, upright: boolean): ImageFacts {
  if (!m.width || !m.height) throw new Error('The image has no dimensions');
  if (upright) return { width: m.width, height: m.height, orientation: null };
  const o = m.orientation ?? null;
  const swap = o !== null && o >= 5 && o <= 8;
  return { width: swap ? m.height : m.width, height: swap ? m.width : m.height, orientation: o };
}

/** Larger files are read by libvips from their path rather than held in memory whole. */
export const WHOLE_FILE_MAX = 64 * 1024 * 1024;

/** A file's bytes, read once (its path, when it is larger than WHOLE_FILE_MAX). */
export async function readWhole(file: string): Promise<string | Buffer> {
  const { size } = await fs.stat(file);
  return size <= WHOLE_FILE_MAX ? fs.readFile(file) : file;
}

const inside = (px: number) => ({ width: px, height: px, fit: 'inside' as const, withoutEnlargement: true });

/**
 * Writes the display image and the thumbnail as WebP: upright (EXIF orientation applied, unless
 * the pixels are `upright` already, as a HEIF decoder gives them) and without any metadata (sharp
 * copies none unless asked: no GPS, no camera serials).
 * The original is decoded once; the thumbnail is made from the display-size pixels, and so are
 * the measures of similar shots and quality (quality.ts), unless `measure` is false.
 */
export function writeImageDerivatives(
  input: string | Buffer,
  displayOut: string,
  thumbOut: string,
  upright = false,
  measure = true,
): Promise<ImageMeasures | null> {
  return derive(sharp(input, INPUT), displayOut, thumbOut, upright, measure);
}

export interface StillImage {
  facts: ImageFacts;
  /** The EXIF block libvips found in the file's header (with its "Exif\0\0" prefix), if any. */
  exif: Buffer | undefined;
  measures: ImageMeasures;
}

/**
 * Everything processing takes from a still image's pixels, from one sharp instance: its header
 * (size, orientation, EXIF block), then one decode, turned upright and shrunk to the display size
 * in the same pipeline, from which the display image, the thumbnail and the measuring copy are all
 * made. Give it the file's bytes: libvips then opens nothing (from a path it opens the file again
 * for every loader that sniffs it, and again to decode).
 */
export async function readStillImage(input: string | Buffer, displayOut: string, thumbOut: string, upright = false): Promise<StillImage> {
  const img = sharp(input, INPUT);
  const header = await img.metadata();
  const facts = factsOf(header, upright);
  const measures = (await derive(img, displayOut, thumbOut, upright, true))!;
  return { facts, exif: header.exif, measures };
}

/** The one decode: upright display-size pixels in memory, then the files and the measures from them. */
async function derive(decoded: Sharp, displayOut: string, thumbOut: string, upright: boolean, measure: boolean): Promise<ImageMeasures | null> {
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

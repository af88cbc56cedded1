import sharp from 'sharp';
import type { QualityFlag } from '../../common/api-types.js';

/**
 * What processing measures of an image to find similar shots and failed ones, all on one
 * fixed-size greyscale copy made from pixels already decoded for the display image: a
 * difference hash (dHash: 9x8 greyscale, 64 bits, one per neighbouring pair of a row: is the
 * left one brighter?), the variance of its Laplacian (edges: low means blurry), and its
 * luminance histogram (dark, overexposed). Thresholds: docs in docs/features.md "Similar shots and"
 * quality flags", tuned by scripts/bench/album-tune.ts.
 */

/** Long side of the measuring copy: sharpness is only comparable between pictures of one size. */
export const MEASURE_PX = 512;
/** Variance of the Laplacian below which a picture is blurry. */
export const BLURRY_BELOW = 60;
/** Mean luminance (0-255) below which a picture is dark... */
export const DARK_MEAN_BELOW = 50;
/** ...unless a tenth of it is still this bright (a night scene with lit faces). */
export const DARK_P90_BELOW = 110;
/** Share of pixels at 250 or brighter above which a picture is overexposed. */
export const CLIPPED_SHARE_ABOVE = 0.25;
/** Mean luminance above which a picture is overexposed whatever its clipping. */
export const BRIGHT_MEAN_ABOVE = 215;

export interface ImageMeasures {
  /** dHash as 16 hex digits. */
  phash: string;
  sharpness: number;
  /** Mean luminance, 0-255. */
  mean: number;
  /** The luminance a tenth of the pixels reach or pass. */
  p90: number;
  /** Share of pixels at 250 or brighter. */
  clipped: number;
}

export interface RawImage {
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

/** Measures raw pixels (as sharp's raw() gives them) through the fixed-size greyscale copy. */
export async function measurePixels(data: Buffer, info: RawImage): Promise<ImageMeasures> {
  const grey = await sharp(data, { raw: info })
    .resize({ width: MEASURE_PX, height: MEASURE_PX, fit: 'inside', withoutEnlargement: true })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return measureGrey(grey.data, grey.info.width, grey.info.height, grey.info.channels);
}

/** Measures an image file (the backfill reads a photo's display image). */
export async function measureFile(file: string): Promise<ImageMeasures> {
  const { data, info } = await sharp(file).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return measurePixels(data, info as RawImage);
}

async function measureGrey(grey: Buffer, w: number, h: number, channels: number): Promise<ImageMeasures> {
  const tiny = await sharp(grey, { raw: { width: w, height: h, channels: channels as 1 } })
    .resize(9, 8, { fit: 'fill', kernel: 'cubic' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  return { phash: dHash(tiny), sharpness: laplacianVariance(grey, w, h, channels), ...histogram(grey, channels) };
}

/** 64 bits from 9x8 pixels: for each row, is each pixel brighter than its right neighbour. */
export function dHash(px: Uint8Array): string {
  let hex = '';
  for (let y = 0; y < 8; y++) {
    let byte = 0;
    for (let x = 0; x < 8; x++) byte = (byte << 1) | (px[y * 9 + x] > px[y * 9 + x + 1] ? 1 : 0);
    hex += byte.toString(16).padStart(2, '0');
  }
  return hex;
}

const POPCOUNT = Uint8Array.from({ length: 256 }, (_, i) => i.toString(2).replace(/0/g, '').length);

/** Bits that differ between two hashes (0-64). */
export function hashDistance(a: string, b: string): number {
  let d = 0;
  for (let i = 0; i < 16; i += 2) d += POPCOUNT[parseInt(a.slice(i, i + 2), 16) ^ parseInt(b.slice(i, i + 2), 16)];
  return d;
}

/** Variance of the 4-neighbour Laplacian over the inner pixels. */
function laplacianVariance(g: Buffer, w: number, h: number, c: number): number {
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  const row = w * c;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * row + x * c;
      const l = g[i - row] + g[i + row] + g[i - c] + g[i + c] - 4 * g[i];
      sum += l;
      sumSq += l * l;
      n++;
    }
  }
  if (n === 0) return 0;
  const mean = sum / n;
  return sumSq / n - mean * mean;
}

function histogram(g: Buffer, c: number): Pick<ImageMeasures, 'mean' | 'p90' | 'clipped'> {
  const bins = new Uint32Array(256);
  let total = 0;
  for (let i = 0; i < g.length; i += c) bins[g[i]]++;
  const n = g.length / c;
  for (let v = 0; v < 256; v++) total += v * bins[v];
  let seen = 0;
  let p90 = 255;
  for (let v = 255; v >= 0; v--) {
    seen += bins[v];
    if (seen >= n * 0.1) {
      p90 = v;
      break;
    }
  }
  let clipped = 0;
  for (let v = 250; v < 256; v++) clipped += bins[v];
  return { mean: n ? total / n : 0, p90, clipped: n ? clipped / n : 0 };
}

/** What the measures say is wrong with the picture (empty: nothing). */
export function qualityFlags(m: Pick<ImageMeasures, 'sharpness' | 'mean' | 'p90' | 'clipped'>): QualityFlag[] {
  const flags: QualityFlag[] = [];
  if (m.sharpness < BLURRY_BELOW) flags.push('blurry');
  if (m.mean < DARK_MEAN_BELOW && m.p90 < DARK_P90_BELOW) flags.push('dark');
  if (m.clipped > CLIPPED_SHARE_ABOVE || m.mean > BRIGHT_MEAN_ABOVE) flags.push('overexposed');
  return flags;
}

import sharp from 'sharp';
import { fitToTiles, largest, mergeDetections, tilesFor, toPixels, toRelative, type Box } from './boxes.js';
import { cutOut, describe, detectSquare, DETECTOR_PX, type Detection, type RgbImage } from './face-model.js';

/**
 * Where faces are looked for: the whole picture scaled into the detector's square, then the
 * picture at each further long side cut into overlapping squares. The detector finds faces down
 * to about 16 px in its square, so a level of 1344 px finds faces of about 48 px in a 4032 px
 * phone photo and larger ones everywhere (docs/features.md "Find the photos you're in", has the
 * measurements behind this choice).
 */
export const DEFAULT_LEVELS: readonly number[] = [DETECTOR_PX, 1344];
/** Tiles overlap by the largest face a tile may miss that the whole picture's pass still finds. */
const TILE_OVERLAP = 64;

export interface PictureFaces {
  /** Relative to the picture (0-1). */
  boxes: Box[];
  /** One per box; null where the box gave no usable face. */
  codes: (Float32Array | null)[];
}

const INPUT = { failOn: 'error' as const, limitInputPixels: 100_000_000 };

/** Decodes upright RGB, scaled down so its long side is at most `longSide`. */
export async function decode(input: string | Buffer, longSide: number): Promise<RgbImage> {
  const { data, info } = await sharp(input, INPUT)
    .rotate()
    .resize(longSide, longSide, { fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

async function scaled(img: RgbImage, longSide: number): Promise<RgbImage> {
  if (Math.max(img.width, img.height) <= longSide) return img;
  const { data, info } = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
    .resize(longSide, longSide, { fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/**
 * How the detector goes over a picture: its levels, and `baseline` for the engine as it was before
 * tiles were fitted and selfies looked at whole first (bench:faces measures both in one run).
 */
export interface DetectionPlan {
  levels: readonly number[];
  baseline?: boolean;
}

export const DEFAULT_PLAN: DetectionPlan = { levels: DEFAULT_LEVELS };
export const SELFIE_PLAN: DetectionPlan = { levels: [DETECTOR_PX, 1024] };

/** Faces in `img`, in its pixels, over every level (levels larger than the picture are skipped). */
export async function detectFaces(img: RgbImage, plan: DetectionPlan = DEFAULT_PLAN): Promise<Detection[]> {
  const { levels } = plan;
  const long = Math.max(img.width, img.height);
  const found: Detection[] = [];
  for (const [i, level] of levels.entries()) {
    // A picture no larger than the level before was already seen at its own scale.
    if (i > 0 && long <= levels[i - 1]) continue;
    const side = Math.min(level, long);
    const fit = i > 0 && !plan.baseline ? fitToTiles((img.width * side) / long, (img.height * side) / long, DETECTOR_PX, TILE_OVERLAP) : 1;
    const picture = await scaled(img, Math.floor(side * fit));
    const k = img.width / picture.width;
    for (const tile of tilesFor(picture.width, picture.height, DETECTOR_PX, TILE_OVERLAP)) {
      for (const d of await detectSquare(cutOut(picture, tile), plan.baseline)) {
        found.push({ x: (d.x + tile.x) * k, y: (d.y + tile.y) * k, width: d.width * k, height: d.height * k, score: d.score });
      }
    }
  }
  return mergeDetections(found);
}

/**
 * Every face of a gallery picture with its code. `known` boxes (from an earlier scan of the same
 * file) skip the detector, which is most of the work.
 */
export async function facesOf(img: RgbImage, known: Box[] | null, plan?: DetectionPlan): Promise<PictureFaces> {
  const pixels = known ? known.map((b) => toPixels(b, img.width, img.height)) : await detectFaces(img, plan);
  const codes = await describe(img, pixels);
  return { boxes: pixels.map((b) => toRelative(b, img.width, img.height)), codes };
}

/** The selfie's largest face's code, or null when it shows no face. */
export async function selfieCode(img: RgbImage, plan: DetectionPlan = SELFIE_PLAN): Promise<Float32Array | null> {
  // A selfie's own face is large: the whole picture is enough, tiles only when it finds none.
  let face = plan.baseline ? undefined : largest(await detectFaces(img, { levels: plan.levels.slice(0, 1) }));
  if (!face) face = largest(await detectFaces(img, plan));
  if (!face) return null;
  const [code] = await describe(img, [face]);
  return code ?? null;
}

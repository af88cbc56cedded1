// Tunes the similar-shot distance and the quality flags on real phone and camera photos
// (test/fixtures) and bursts made from them: each scene shifted 1-3%, re-exposed, recompressed
// (must group), against every other scene and halves of the large ones (must not).
// Run: npx tsx scripts/bench/album-tune.ts
import sharp, { type Sharp } from 'sharp';
import { bitsApart } from '../../server/similar/grouping.js';
import { measurePixels, qualityFlags, type ImageMeasures, type RawImage } from '../../server/processing/quality.js';
import { sample } from '../../test/helpers/samples.js';

const SCENES = [
  'mobile_jolla.jpg', 'hdr_iphone_hdr_YES.jpg', 'gps_DSCN0010.jpg', 'orientation_landscape_1.jpg', 'orientation_portrait_6.jpg',
  'xmp_no_exif.jpg', 'invalid_image01088.jpg', 'Canon_40D.jpg', 'Nikon_D70.jpg', 'Pentax_K10D.jpg', 'Panasonic_DMC-FZ30.jpg', 'Fujifilm_FinePix_E500.jpg',
];
const LARGE = ['mobile_jolla.jpg', 'hdr_iphone_hdr_YES.jpg', 'gps_DSCN0010.jpg', 'orientation_landscape_1.jpg', 'xmp_no_exif.jpg'];

/** Measures a JPEG as processing does: decoded, upright, at display size. */
async function measure(jpeg: Buffer): Promise<ImageMeasures> {
  const { data, info } = await sharp(jpeg).rotate().resize(1920, 1920, { fit: 'inside', withoutEnlargement: true }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return measurePixels(data, info as RawImage);
}

type Variant = (img: Sharp, w: number, h: number) => Sharp;
const shift = (pct: number, dx: number, dy: number): Variant => (img, w, h) => {
  const cw = Math.round(w * (1 - pct / 100));
  const ch = Math.round(h * (1 - pct / 100));
  return img.extract({ left: Math.round((w - cw) * dx), top: Math.round((h - ch) * dy), width: cw, height: ch }).resize(w, h);
};
const BURST: Record<string, Variant> = {
  'shift 1%': shift(1, 1, 0.5),
  'shift 2%': shift(2, 0, 1),
  'shift 3%': shift(3, 1, 1),
  'exposure -0.5 EV': (img) => img.linear(0.7, 0),
  'exposure +0.5 EV': (img) => img.linear(1.4, 0),
  'recompressed q55': (img) => img,
  'shift 2% + 0.3 EV + q70': (img, w, h) => shift(2, 0.5, 0)(img, w, h).linear(1.25, 0),
};
const FLAGGED: Record<string, [Variant, string]> = {
  // Blur relative to the picture's size: out of focus, or a phone moving in a pocket.
  'blur 0.3% of width': [(img, w) => img.blur(Math.max(0.3, w * 0.003)), 'blurry'],
  'blur 0.6% of width': [(img, w) => img.blur(Math.max(0.3, w * 0.006)), 'blurry'],
  'dark (-2.5 EV)': [(img) => img.linear(0.18, 0), 'dark'],
  'dark (-3.5 EV)': [(img) => img.linear(0.09, 0), 'dark'],
  'overexposed (+1.5 EV)': [(img) => img.linear(2.8, 0), 'overexposed'],
  'overexposed (+2 EV)': [(img) => img.linear(4, 0), 'overexposed'],
};

async function render(file: string, v?: Variant, quality = 85): Promise<Buffer> {
  const src = await sharp(file).rotate().toBuffer();
  const { width, height } = await sharp(src).metadata();
  const img = sharp(src);
  return (v ? v(img, width!, height!) : img).jpeg({ quality }).toBuffer();
}

const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)}%`;
const stats = (xs: number[]) => `min ${Math.min(...xs)} median ${xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]} max ${Math.max(...xs)}`;

const base = new Map<string, ImageMeasures>();
for (const s of SCENES) base.set(s, await measure(await render(sample(s))));
for (const s of LARGE) {
  const { width, height } = await sharp(sample(s)).rotate().toBuffer().then((b) => sharp(b).metadata());
  const half = Math.floor(width! / 2);
  base.set(`${s} left half`, await measure(await render(sample(s), (img) => img.extract({ left: 0, top: 0, width: half, height: height! }))));
  base.set(`${s} right half`, await measure(await render(sample(s), (img) => img.extract({ left: half, top: 0, width: half, height: height! }))));
}

const positives: number[] = [];
const byVariant = new Map<string, number[]>();
for (const s of SCENES) {
  for (const [name, v] of Object.entries(BURST)) {
    const m = await measure(await render(sample(s), v, name.includes('q55') ? 55 : name.includes('q70') ? 70 : 85));
    const d = bitsApart(base.get(s)!.phash, m.phash);
    positives.push(d);
    byVariant.set(name, [...(byVariant.get(name) ?? []), d]);
  }
}
const scenes = [...base.keys()];
const negatives: number[] = [];
for (let i = 0; i < scenes.length; i++) for (let j = i + 1; j < scenes.length; j++) {
  // The halves of one photo share nothing but their light: counted as different scenes too.
  negatives.push(bitsApart(base.get(scenes[i])!.phash, base.get(scenes[j])!.phash));
}

console.log(`similar shots: ${positives.length} burst pairs from ${SCENES.length} real photos, ${negatives.length} pairs of different scenes`);
for (const [name, ds] of byVariant) console.log(`  ${name.padEnd(26)} bits apart: ${stats(ds)}`);
console.log(`  burst pairs:               ${stats([...positives])}`);
console.log(`  different scenes:          ${stats([...negatives])}`);
for (const t of [6, 8, 10, 12, 14, 16]) {
  const missed = positives.filter((d) => d > t).length;
  const falseGroups = negatives.filter((d) => d <= t).length;
  console.log(`  at most ${String(t).padStart(2)} bits: bursts grouped ${pct(positives.length - missed, positives.length)}, different scenes grouped (false) ${pct(falseGroups, negatives.length)}`);
}

console.log('\nquality flags (thresholds in server/processing/quality.ts):');
let clean = 0;
for (const [s, m] of base) {
  const f = qualityFlags(m);
  if (f.length === 0) clean++;
  console.log(`  ${s.padEnd(38)} sharpness ${m.sharpness.toFixed(0).padStart(5)} mean ${m.mean.toFixed(0).padStart(3)} p90 ${String(m.p90).padStart(3)} clipped ${(m.clipped * 100).toFixed(1).padStart(5)}%  ${f.join(',') || '-'}`);
}
console.log(`  unchanged photos without a flag: ${clean}/${base.size}`);
// Flags are judged on photos at least as large as the measuring copy, as every phone's are (the
// tiny camera samples are EXIF thumbnails of 160 px).
const FLAG_SCENES: string[] = [];
for (const s of SCENES) {
  const m = await sharp(sample(s)).metadata();
  if (Math.max(m.width!, m.height!) >= 512) FLAG_SCENES.push(s);
}
console.log(`  flags on ${FLAG_SCENES.length} photos of at least 512 px: ${FLAG_SCENES.join(', ')}`);
for (const [name, [v, flag]] of Object.entries(FLAGGED)) {
  let hit = 0;
  const other: string[] = [];
  for (const s of FLAG_SCENES) {
    const m = await measure(await render(sample(s), v));
    const f = qualityFlags(m);
    if (f.includes(flag as never)) hit++;
    else other.push(`${s}: ${m.sharpness.toFixed(0)}/${m.mean.toFixed(0)}/${m.p90}/${(m.clipped * 100).toFixed(0)}%`);
  }
  console.log(`  ${name.padEnd(22)} flagged ${flag}: ${hit}/${FLAG_SCENES.length}${other.length ? `  missed ${other.join('; ')}` : ''}`);
}

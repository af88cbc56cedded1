// bench:faces-recall — how many small faces the detector finds, and its CPU per picture, for the
// engine's detection plan against the plan it had before (DetectionPlan.baseline), in one run.
// Pictures: 1920x1440 display copies (what the face search reads) filled with copies of the six
// group photos of test/fixtures, scaled so their faces are 40, 56 or 80 px wide in a 12 MP
// original (19, 27 or 38 px in the display copy). The faces the engine finds in each group photo
// at its full size are the truth; a face counts as found when a detection holds its centre.
import sharp, { type OverlayOptions } from 'sharp';
import { decode, detectFaces, DEFAULT_PLAN, type DetectionPlan } from '../../server/faces/engine/faces-in-picture.js';
import { loadModels } from '../../server/faces/engine/face-model.js';
import type { Box } from '../../server/faces/engine/boxes.js';
import { GROUP_PHOTOS } from '../../test/helpers/faces.js';

const W = 1920;
const H = 1440;
const SIZES = (process.env.SIZES ?? "40,56,80").split(",").map(Number);
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

async function picture(file: string, truth: Box[], facePx: number): Promise<{ img: Buffer; faces: Box[] }> {
  const widths = truth.map((b) => b.width).sort((a, b) => a - b);
  const target = (facePx * W) / 4032;
  const w = Math.round(target / widths[Math.floor(widths.length / 2)]);
  const small = await sharp(file).resize(w).toBuffer({ resolveWithObject: true });
  const h = small.info.height;
  const parts: OverlayOptions[] = [];
  const faces: Box[] = [];
  for (let y = 0; y < H; y += h) {
    for (let x = 0; x < W; x += w) {
      parts.push({ input: small.data, left: x, top: y });
      for (const b of truth) {
        const f = { x: x + b.x * w, y: y + b.y * h, width: b.width * w, height: b.height * h };
        if (f.x + f.width <= W && f.y + f.height <= H) faces.push(f);
      }
    }
  }
  const img = await sharp({ create: { width: W, height: H, channels: 3, background: '#808080' } }).composite(parts).jpeg({ quality: 90 }).toBuffer();
  return { img, faces };
}

const holds = (d: Box, f: Box) => {
  const cx = f.x + f.width / 2;
  const cy = f.y + f.height / 2;
  return cx > d.x && cx < d.x + d.width && cy > d.y && cy < d.y + d.height && d.width < f.width * 2.5;
};

async function main(): Promise<void> {
  await loadModels();
  const plans: [string, DetectionPlan][] = [
    ['before', { ...DEFAULT_PLAN, baseline: true }],
    ['now', DEFAULT_PLAN],
  ];
  const truths: Box[][] = [];
  for (const file of GROUP_PHOTOS) {
    const img = await decode(file, 4096);
    truths.push((await detectFaces(img)).map((d) => ({ x: d.x / img.width, y: d.y / img.height, width: d.width / img.width, height: d.height / img.height })));
  }
  console.log(`truth: ${truths.flat().length} faces in ${GROUP_PHOTOS.length} group photos`);
  const rows: Record<string, { found: number[]; total: number[]; cpu: number; pictures: number }> = {};
  for (const [name] of plans) rows[name] = { found: SIZES.map(() => 0), total: SIZES.map(() => 0), cpu: 0, pictures: 0 };
  for (const [s, px] of SIZES.entries()) {
    for (const [i, file] of GROUP_PHOTOS.entries()) {
      const { img, faces } = await picture(file, truths[i], px);
      const rgb = await decode(img, 1344);
      const k = W / rgb.width;
      for (const [name, plan] of plans) {
        const c = cpu();
        const found = (await detectFaces(rgb, plan)).map((d) => ({ x: d.x * k, y: d.y * k, width: d.width * k, height: d.height * k }));
        const r = rows[name];
        r.cpu += cpu() - c;
        r.pictures++;
        r.total[s] += faces.length;
        r.found[s] += faces.filter((f) => found.some((d) => holds(d, f))).length;
      }
    }
  }
  console.log(`plan | ${SIZES.map((p) => `faces ${p} px (12 MP)`).join(' | ')} | detector CPU per picture`);
  for (const [name, r] of Object.entries(rows)) {
    console.log(`${name} | ${SIZES.map((_, s) => `${((100 * r.found[s]) / r.total[s]).toFixed(0)}% (${r.found[s]}/${r.total[s]})`).join(' | ')} | ${(r.cpu / r.pictures).toFixed(2)} s`);
  }
  console.log(`CPU ratio now/before: ${(rows.now.cpu / rows.before.cpu).toFixed(2)}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

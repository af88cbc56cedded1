import sharp, { type Sharp } from 'sharp';
import { sample } from '../helpers/samples.js';
import { uploadFile } from '../helpers/uploads.js';

/** A photo of random noise: sharp, mid-grey on average, and unlike any other (no similar-shot group). */
export const noise = (w = 480, h = 360) =>
  sharp(Buffer.from(Array.from({ length: w * h * 3 }, () => Math.floor(Math.random() * 256))), { raw: { width: w, height: h, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();

/** A real scene from the fixtures, changed by `edit` (a burst's shift, a shaken blur). */
export async function scene(file: string, edit: (img: Sharp, w: number, h: number) => Sharp = (i) => i): Promise<Buffer> {
  const src = await sharp(sample(file)).rotate().resize(1000, 1000, { fit: 'inside' }).toBuffer();
  const { width, height } = await sharp(src).metadata();
  return edit(sharp(src), width!, height!).jpeg({ quality: 85 }).toBuffer();
}

export const shifted = (pct: number) => (img: Sharp, w: number, h: number) => {
  const cw = Math.round(w * (1 - pct / 100));
  const ch = Math.round(h * (1 - pct / 100));
  return img.extract({ left: w - cw, top: h - ch, width: cw, height: ch }).resize(w, h);
};

/** Uploads as a guest and waits until processing finished; answers the photo's id. */
export async function sendAndProcess(base: string, data: Buffer | string, name: string): Promise<string> {
  const r = await uploadFile(base, data, name);
  if (r.status !== 201) throw new Error(`upload of ${name}: ${r.status} ${JSON.stringify(r.body)}`);
  const id = (r.body as { photo_id: string }).photo_id;
  for (const deadline = Date.now() + 90_000; Date.now() < deadline; await new Promise((ok) => setTimeout(ok, 200))) {
    const s = (await (await fetch(`${base}/api/photos/${id}/status`)).json()) as { status: string };
    if (s.status === 'complete') return id;
    if (s.status === 'error') throw new Error(`processing of ${name} failed`);
  }
  throw new Error(`processing of ${name} did not finish`);
}

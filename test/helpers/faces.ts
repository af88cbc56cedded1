import sharp from 'sharp';
import { sample } from './samples.js';

/** The six real group photos (face-api's demo/ folder; test/fixtures/README.md). */
export const GROUP_PHOTOS = [1, 2, 3, 4, 5, 6].map((i) => sample(`faces_group_${i}.jpg`));

export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A selfie's treatment of a face: how it is turned, scaled and lit. */
export interface SelfieLook {
  mirror: boolean;
  /** Long side of the selfie in pixels. */
  size: number;
  /** Brightness factor (1 unchanged). */
  light: number;
  /** Contrast factor (1 unchanged). */
  contrast: number;
}

export const SELFIE_LOOKS: SelfieLook[] = [
  { mirror: true, size: 640, light: 1.25, contrast: 1.1 },
  { mirror: true, size: 360, light: 0.75, contrast: 0.9 },
  { mirror: false, size: 1024, light: 1.0, contrast: 1.25 },
  { mirror: true, size: 200, light: 1.4, contrast: 0.8 },
];

/**
 * A selfie made from one face of a real photo: the head with some shoulders around it (the box
 * in relative coordinates), mirrored like a front camera, rescaled and relit. JPEG.
 */
export async function selfieFrom(photo: string, box: FaceBox, look: SelfieLook = SELFIE_LOOKS[0]): Promise<Buffer> {
  const m = await sharp(photo).metadata();
  const W = m.width!;
  const H = m.height!;
  const left = Math.max(0, Math.round((box.x - box.width * 0.7) * W));
  const top = Math.max(0, Math.round((box.y - box.height * 0.5) * H));
  const width = Math.min(W - left, Math.round(box.width * 2.4 * W));
  const height = Math.min(H - top, Math.round(box.height * 2.1 * H));
  let img = sharp(photo).extract({ left, top, width, height });
  if (look.mirror) img = img.flop();
  return img
    .resize(look.size, look.size, { fit: 'inside' })
    .modulate({ brightness: look.light })
    .linear(look.contrast, 128 * (1 - look.contrast))
    .jpeg({ quality: 88 })
    .toBuffer();
}

/** A picture with no face in it: soft coloured noise, like a photo of a table cloth. */
export function faceless(width = 800, height = 600): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#b08060', noise: { type: 'gaussian', mean: 128, sigma: 30 } } })
    .blur(3)
    .jpeg()
    .toBuffer();
}

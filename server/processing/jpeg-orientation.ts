import fs from 'node:fs/promises';

/**
 * EXIF orientations as (mirror first?, then turn clockwise): turning the displayed picture
 * by d degrees adds d to the turn and keeps the mirror.
 */
const AS_TRANSFORM: Record<number, [boolean, number]> = {
  1: [false, 0], 2: [true, 0], 3: [false, 180], 4: [true, 180],
  5: [true, 270], 6: [false, 90], 7: [true, 90], 8: [false, 270],
};

/** The EXIF orientation that shows the image turned a further `degrees` clockwise. */
export function composeOrientation(current: number | null, degrees: number): number {
  const [mirror, turn] = AS_TRANSFORM[current ?? 1] ?? AS_TRANSFORM[1];
  const next = (turn + degrees) % 360;
  return Number(Object.entries(AS_TRANSFORM).find(([, [m, t]]) => m === mirror && t === next)![0]);
}

interface OrientationSlot {
  /** File offset of the tag's 2-byte value, or null when IFD0 has no Orientation entry. */
  valueAt: number | null;
  littleEndian: boolean;
  value: number | null;
}

/** Where the EXIF block is in a JPEG head: the APP1 "Exif" segment and IFD0's Orientation. */
export function findOrientation(head: Buffer): { exif: boolean; slot: OrientationSlot | null; insertAt: number } {
  if (head[0] !== 0xff || head[1] !== 0xd8) throw new Error('Not a JPEG file');
  let p = 2;
  let insertAt = 2;
  while (p + 4 <= head.length && head[p] === 0xff) {
    const marker = head[p + 1];
    if (marker === 0xda || marker === 0xd9) break; // image data begins
    const len = head.readUInt16BE(p + 2);
    if (marker === 0xe0) insertAt = p + 2 + len; // keep JFIF's APP0 first
    if (marker === 0xe1 && head.toString('latin1', p + 4, p + 10) === 'Exif\0\0') {
      const tiff = p + 10;
      const le = head.toString('latin1', tiff, tiff + 2) === 'II';
      const u16 = (o: number) => (le ? head.readUInt16LE(o) : head.readUInt16BE(o));
      const u32 = (o: number) => (le ? head.readUInt32LE(o) : head.readUInt32BE(o));
      const ifd0 = tiff + u32(tiff + 4);
      if (ifd0 + 2 > head.length) return { exif: true, slot: null, insertAt };
      const count = u16(ifd0);
      for (let i = 0; i < count; i++) {
        const e = ifd0 + 2 + i * 12;
        if (e + 12 > head.length) break;
        if (u16(e) === 0x0112 && u16(e + 2) === 3) {
          return { exif: true, slot: { valueAt: e + 8, littleEndian: le, value: u16(e + 8) }, insertAt };
        }
      }
      return { exif: true, slot: null, insertAt };
    }
    p += 2 + len;
  }
  return { exif: false, slot: null, insertAt };
}

/** The smallest EXIF APP1 segment that says one thing: the orientation. */
function minimalExif(orientation: number): Buffer {
  const tiff = Buffer.alloc(8 + 2 + 12 + 4);
  tiff.write('MM', 0, 'latin1');
  tiff.writeUInt16BE(42, 2);
  tiff.writeUInt32BE(8, 4);
  tiff.writeUInt16BE(1, 8);
  tiff.writeUInt16BE(0x0112, 10);
  tiff.writeUInt16BE(3, 12);
  tiff.writeUInt32BE(1, 14);
  tiff.writeUInt16BE(orientation, 18);
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const seg = Buffer.alloc(4);
  seg.writeUInt16BE(0xffe1, 0);
  seg.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([seg, body]);
}

const HEAD_BYTES = 256 * 1024;

/**
 * Gives a JPEG a new EXIF orientation without touching its image data: the tag's two bytes
 * are rewritten in place, or (no EXIF at all) a minimal EXIF segment is inserted into a copy
 * that replaces the file. Returns false when neither is possible (EXIF without the tag).
 */
export async function setJpegOrientation(file: string, orientation: number): Promise<boolean> {
  const handle = await fs.open(file, 'r+');
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
    const found = findOrientation(head.subarray(0, bytesRead));
    if (found.slot?.valueAt != null) {
      const v = Buffer.alloc(2);
      if (found.slot.littleEndian) v.writeUInt16LE(orientation);
      else v.writeUInt16BE(orientation);
      await handle.write(v, 0, 2, found.slot.valueAt);
      return true;
    }
    if (found.exif) return false;
  } finally {
    await handle.close();
  }
  const found = findOrientation(await readHead(file));
  const tmp = `${file}.rotating`;
  const out = await fs.open(tmp, 'w');
  try {
    const src = await fs.open(file, 'r');
    try {
      const first = Buffer.alloc(found.insertAt);
      await src.read(first, 0, found.insertAt, 0);
      await out.write(first);
      await out.write(minimalExif(orientation));
      for await (const chunk of src.createReadStream({ start: found.insertAt, autoClose: false })) await out.write(chunk as Buffer);
    } finally {
      await src.close();
    }
  } finally {
    await out.close();
  }
  await fs.rename(tmp, file);
  return true;
}

async function readHead(file: string): Promise<Buffer> {
  const h = await fs.open(file, 'r');
  try {
    const b = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await h.read(b, 0, HEAD_BYTES, 0);
    return b.subarray(0, bytesRead);
  } finally {
    await h.close();
  }
}

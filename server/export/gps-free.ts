import fs from 'node:fs/promises';
import crc32 from 'crc-32';

/**
 * Guests' downloads keep the original's bytes except where they say where it was taken: the
 * EXIF GPS directory (its entries and the values they point to) is zeroed and left empty, and
 * an XMP packet that mentions GPS is blanked with spaces. Nothing moves, so the rest of the file
 * (the picture, the other EXIF, offsets into it) stays exactly as it was, and the download can
 * stream straight from the original with these few byte ranges replaced on the way.
 */

/** Bytes to put at a file offset instead of the original's. */
export interface Patch {
  offset: number;
  bytes: Buffer;
}

/** The patches that take the GPS location out of an image file (none for videos and GIFs). */
export async function gpsPatches(file: string, contentType: string): Promise<Patch[]> {
  const handle = await fs.open(file, 'r');
  const read = async (at: number, length: number): Promise<Buffer> => {
    const b = Buffer.alloc(Math.max(0, length));
    const { bytesRead } = await handle.read(b, 0, b.length, at);
    return b.subarray(0, bytesRead);
  };
  try {
    switch (contentType) {
      case 'image/jpeg':
        return await jpeg(read);
      case 'image/png':
        return await png(read);
      case 'image/webp':
        return await webp(read);
      case 'image/heic':
      case 'image/heif':
      case 'image/avif':
        return await isoBmff(read);
      default:
        return [];
    }
  } finally {
    await handle.close();
  }
}

type Reader = (at: number, length: number) => Promise<Buffer>;
const zeros = (n: number) => Buffer.alloc(n);
const XMP_JPEG = ['http://ns.adobe.com/xap/1.0/\0', 'http://ns.adobe.com/xmp/extension/\0'];

/** Patches that empty the GPS directory of the TIFF block `t`, found at file offset `base`. */
export function tiffGpsPatches(t: Buffer, base: number): Patch[] {
  if (t.length < 8) return [];
  const order = t.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return [];
  const le = order === 'II';
  const u16 = (o: number) => (le ? t.readUInt16LE(o) : t.readUInt16BE(o));
  const u32 = (o: number) => (le ? t.readUInt32LE(o) : t.readUInt32BE(o));
  const ifd0 = u32(4);
  if (ifd0 + 2 > t.length) return [];
  let gps = 0;
  for (let i = 0, n = u16(ifd0); i < n && ifd0 + 2 + i * 12 + 12 <= t.length; i++) {
    const e = ifd0 + 2 + i * 12;
    if (u16(e) === 0x8825) gps = u32(e + 8);
  }
  if (!gps || gps + 2 > t.length) return [];
  const SIZES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8 };
  const count = u16(gps);
  const patches: Patch[] = [];
  for (let i = 0; i < count && gps + 2 + i * 12 + 12 <= t.length; i++) {
    const e = gps + 2 + i * 12;
    const size = (SIZES[u16(e + 2)] ?? 1) * u32(e + 4);
    const at = u32(e + 8);
    // Values over four bytes (latitude, longitude: three rationals each) live outside the entry.
    if (size > 4 && at + size <= t.length) patches.push({ offset: base + at, bytes: zeros(size) });
  }
  // Count 0, and the "next directory" offset read right after it is 0 as well.
  const end = Math.min(t.length, gps + 2 + count * 12 + 4);
  patches.push({ offset: base + gps, bytes: zeros(end - gps) });
  return patches;
}

/** An XMP packet that names a place: blanked with spaces (the same length, still a valid segment). */
function xmpPatch(body: Buffer, at: number): Patch[] {
  return body.includes('GPS') ? [{ offset: at, bytes: Buffer.alloc(body.length, 0x20) }] : [];
}

async function jpeg(read: Reader): Promise<Patch[]> {
  const patches: Patch[] = [];
  let p = 2;
  for (;;) {
    const h = await read(p, 4);
    if (h.length < 4 || h[0] !== 0xff) break;
    const marker = h[1];
    if (marker === 0xda || marker === 0xd9) break; // image data begins
    const len = h.readUInt16BE(2);
    if (marker === 0xe1) {
      const body = await read(p + 4, len - 2);
      if (body.toString('latin1', 0, 6) === 'Exif\0\0') patches.push(...tiffGpsPatches(body.subarray(6), p + 10));
      const xmp = XMP_JPEG.find((ns) => body.toString('latin1', 0, ns.length) === ns);
      if (xmp) patches.push(...xmpPatch(body.subarray(xmp.length), p + 4 + xmp.length));
    }
    p += 2 + len;
  }
  return patches;
}

/** PNG: eXIf and XMP text chunks; each patched chunk gets its CRC written anew. */
async function png(read: Reader): Promise<Patch[]> {
  const patches: Patch[] = [];
  let p = 8;
  for (;;) {
    const h = await read(p, 8);
    if (h.length < 8) break;
    const len = h.readUInt32BE(0);
    const type = h.toString('latin1', 4, 8);
    if (type === 'IEND') break;
    if (type === 'eXIf' || type === 'iTXt') {
      const data = await read(p + 8, len);
      const own =
        type === 'eXIf' ? tiffGpsPatches(data, p + 8) : data.toString('latin1', 0, 18) === 'XML:com.adobe.xmp\0' ? xmpPatch(data.subarray(18), p + 8 + 18) : [];
      if (own.length) {
        const patched = Buffer.from(data);
        for (const x of own) x.bytes.copy(patched, x.offset - (p + 8));
        const crc = Buffer.alloc(4);
        crc.writeInt32BE(crc32.buf(Buffer.concat([h.subarray(4, 8), patched])));
        patches.push(...own, { offset: p + 8 + len, bytes: crc });
      }
    }
    p += 12 + len;
  }
  return patches;
}

/** WebP (RIFF): the EXIF and XMP chunks. */
async function webp(read: Reader): Promise<Patch[]> {
  const patches: Patch[] = [];
  let p = 12;
  for (;;) {
    const h = await read(p, 8);
    if (h.length < 8) break;
    const type = h.toString('latin1', 0, 4);
    const len = h.readUInt32LE(4);
    if (type === 'EXIF') {
      const data = await read(p + 8, len);
      const skip = data.toString('latin1', 0, 6) === 'Exif\0\0' ? 6 : 0;
      patches.push(...tiffGpsPatches(data.subarray(skip), p + 8 + skip));
    } else if (type === 'XMP ') patches.push(...xmpPatch(await read(p + 8, len), p + 8));
    p += 8 + len + (len % 2);
  }
  return patches;
}

/** HEIC, HEIF, AVIF: the items of type Exif and XMP, found through the meta box's iinf and iloc. */
async function isoBmff(read: Reader): Promise<Patch[]> {
  let p = 0;
  let meta: Buffer | undefined;
  for (let i = 0; i < 64 && !meta; i++) {
    const h = await read(p, 16);
    if (h.length < 8) return [];
    let size = h.readUInt32BE(0);
    if (size === 1) size = Number(h.readBigUInt64BE(8));
    if (h.toString('latin1', 4, 8) === 'meta') meta = await read(p, Math.min(size, 4 << 20));
    if (size < 8) return [];
    p += size;
  }
  if (!meta) return [];
  const boxes = children(meta, 12);
  const iinf = boxes.get('iinf');
  const iloc = boxes.get('iloc');
  if (!iinf || !iloc) return [];
  const wanted = itemsOfInterest(meta, iinf);
  const patches: Patch[] = [];
  for (const [id, extent] of itemExtents(meta, iloc)) {
    const kind = wanted.get(id);
    if (!kind) continue;
    const data = await read(extent.offset, extent.length);
    if (kind === 'xmp') patches.push(...xmpPatch(data, extent.offset));
    else if (data.length >= 4) {
      const tiff = 4 + data.readUInt32BE(0);
      patches.push(...tiffGpsPatches(data.subarray(tiff), extent.offset + tiff));
    }
  }
  return patches;
}

/** The boxes inside `b` from `from` on, by type: [start of content, end]. */
function children(b: Buffer, from: number, to = b.length): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  for (let p = from; p + 8 <= to; ) {
    const size = b.readUInt32BE(p);
    if (size < 8 || p + size > to) break;
    out.set(b.toString('latin1', p + 4, p + 8), [p + 8, p + size]);
    p += size;
  }
  return out;
}

function itemsOfInterest(b: Buffer, [start, end]: [number, number]): Map<number, 'exif' | 'xmp'> {
  const out = new Map<number, 'exif' | 'xmp'>();
  const version = b[start];
  let p = start + 4 + (version === 0 ? 2 : 4);
  while (p + 8 <= end) {
    const size = b.readUInt32BE(p);
    if (size < 8) break;
    if (b.toString('latin1', p + 4, p + 8) === 'infe' && b[p + 8] >= 2) {
      const v = b[p + 8];
      const id = v === 2 ? b.readUInt16BE(p + 12) : b.readUInt32BE(p + 12);
      const typeAt = p + 12 + (v === 2 ? 2 : 4) + 2;
      const type = b.toString('latin1', typeAt, typeAt + 4);
      if (type === 'Exif') out.set(id, 'exif');
      else if (type === 'mime' && b.subarray(typeAt + 4, p + size).includes('rdf+xml')) out.set(id, 'xmp');
    }
    p += size;
  }
  return out;
}

/** Where each item's bytes are in the file (items stored as one extent at a file offset). */
function itemExtents(b: Buffer, [start]: [number, number]): Map<number, { offset: number; length: number }> {
  const out = new Map<number, { offset: number; length: number }>();
  const version = b[start];
  let p = start + 4;
  const sizes = b.readUInt16BE(p);
  const [offsetSize, lengthSize, baseSize, indexSize] = [sizes >> 12, (sizes >> 8) & 15, (sizes >> 4) & 15, version > 0 ? sizes & 15 : 0];
  p += 2;
  const uint = (n: number) => {
    const v = n === 8 ? Number(b.readBigUInt64BE(p)) : n === 4 ? b.readUInt32BE(p) : n === 2 ? b.readUInt16BE(p) : 0;
    p += n;
    return v;
  };
  const count = uint(version < 2 ? 2 : 4);
  for (let i = 0; i < count && p < b.length; i++) {
    const id = uint(version < 2 ? 2 : 4);
    const method = version > 0 ? uint(2) & 15 : 0;
    uint(2); // data_reference_index
    const base = uint(baseSize);
    const extents = uint(2);
    for (let e = 0; e < extents; e++) {
      uint(indexSize);
      const offset = uint(offsetSize);
      const length = uint(lengthSize);
      if (e === 0 && extents === 1 && method === 0) out.set(id, { offset: base + offset, length });
    }
  }
  return out;
}

/** Lays the patches over `chunk`, which holds the file's bytes from `position` on. */
export function applyPatches(chunk: Buffer, position: number, patches: readonly Patch[]): void {
  for (const x of patches) {
    const from = Math.max(x.offset, position);
    const to = Math.min(x.offset + x.bytes.length, position + chunk.length);
    if (from < to) x.bytes.copy(chunk, from - position, from - x.offset, to - x.offset);
  }
}

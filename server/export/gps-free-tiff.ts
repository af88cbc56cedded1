// What every format's location remover shares: the patch, the TIFF block's GPS directory (EXIF in
// JPEG, WebP, HEIC) and XMP that names a place. The formats: gps-free.ts (JPEG, PNG, WebP) and
// gps-free-boxes.ts (HEIC/HEIF/AVIF items, QuickTime and MP4 boxes).

/** Bytes to put at a file offset instead of the original's. */
export interface Patch {
  offset: number;
  bytes: Buffer;
}

export type Reader = (at: number, length: number) => Promise<Buffer>;
export const zeros = (n: number) => Buffer.alloc(n);

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

/** Words that say where a file was made, in XMP or other text (`exif:GPSLatitude`, `drone-dji:GpsLatitude`, ...). */
export const PLACE = /gps|latitude|longitude|location/i;

/** Whether XMP or other text names a place. */
export function namesPlace(text: Buffer): boolean {
  return PLACE.test(text.toString('latin1'));
}

/** An XMP packet that names a place: blanked with spaces (the same length, still a valid segment). */
export function xmpPatch(body: Buffer, at: number): Patch[] {
  return namesPlace(body) ? [{ offset: at, bytes: Buffer.alloc(body.length, 0x20) }] : [];
}

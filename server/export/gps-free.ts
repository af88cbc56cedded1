import fs from 'node:fs/promises';
import zlib from 'node:zlib';
import crc32 from 'crc-32';

/**
 * Guests' downloads keep the original's bytes except where they say where it was taken: the
 * EXIF GPS directory (its entries and the values they point to) is zeroed and left empty, an
 * XMP packet that names a place (GPS, latitude, longitude or location, in any letter case and
 * namespace) is blanked with spaces, a PNG text chunk that carries either becomes an empty text,
 * and a video's location entries (QuickTime/MP4 `©xyz`, `loci`, the Apple key
 * `com.apple.quicktime.location.ISO6709` and its kin, XMP) become `free` boxes full of zeros.
 * Nothing moves, so the rest of the file (the picture, the other metadata, offsets into it)
 * stays exactly as it was, and the download can stream straight from the original with these
 * few byte ranges replaced on the way: a 200 MB video costs a few reads of its box headers.
 */

/** Bytes to put at a file offset instead of the original's. */
export interface Patch {
  offset: number;
  bytes: Buffer;
}

/** The patches that take the location out of a photo or video file (none for GIFs, AVI and WebM). */
export async function gpsPatches(file: string, contentType: string): Promise<Patch[]> {
  const handle = await fs.open(file, 'r');
  const size = async () => (await handle.stat()).size;
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
      case 'video/mp4':
      case 'video/quicktime':
      case 'video/x-m4v':
        return await movie(read, await size());
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

/** Words that say where a file was made, in XMP or other text (`exif:GPSLatitude`, `drone-dji:GpsLatitude`, ...). */
const PLACE = /gps|latitude|longitude|location/i;

/** Whether XMP or other text names a place. */
export function namesPlace(text: Buffer): boolean {
  return PLACE.test(text.toString('latin1'));
}

/** An XMP packet that names a place: blanked with spaces (the same length, still a valid segment). */
function xmpPatch(body: Buffer, at: number): Patch[] {
  return namesPlace(body) ? [{ offset: at, bytes: Buffer.alloc(body.length, 0x20) }] : [];
}

async function jpeg(read: Reader): Promise<Patch[]> {
  const patches: Patch[] = [];
  // Extended XMP: one packet cut into segments anywhere (a word may be split): judged as a whole.
  const extended: { body: Buffer; at: number }[] = [];
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
      if (body.toString('latin1', 0, XMP_JPEG[0].length) === XMP_JPEG[0]) patches.push(...xmpPatch(body.subarray(XMP_JPEG[0].length), p + 4 + XMP_JPEG[0].length));
      else if (body.toString('latin1', 0, XMP_JPEG[1].length) === XMP_JPEG[1]) {
        // GUID (32), full length (4), offset (4), then this part of the packet.
        const skip = XMP_JPEG[1].length + 40;
        if (body.length > skip) extended.push({ body: body.subarray(skip), at: p + 4 + skip });
      }
    }
    p += 2 + len;
  }
  if (extended.length && namesPlace(Buffer.concat(extended.map((e) => e.body)))) {
    for (const e of extended) patches.push({ offset: e.at, bytes: Buffer.alloc(e.body.length, 0x20) });
  }
  return patches;
}

/**
 * PNG: the eXIf chunk's GPS directory is emptied; a text chunk (tEXt, zTXt, iTXt) whose text,
 * once inflated, holds XMP or words that name a place, or an EXIF profile ("Raw profile type
 * exif", hex) with a GPS directory, becomes a tEXt chunk of the same keyword and length whose
 * text is spaces. Each patched chunk gets its CRC written anew.
 */
async function png(read: Reader): Promise<Patch[]> {
  const patches: Patch[] = [];
  let p = 8;
  for (;;) {
    const h = await read(p, 8);
    if (h.length < 8) break;
    const len = h.readUInt32BE(0);
    const type = h.toString('latin1', 4, 8);
    if (type === 'IEND') break;
    if (type === 'eXIf' || type === 'tEXt' || type === 'zTXt' || type === 'iTXt') {
      const data = await read(p + 8, len);
      let own: Patch[] = [];
      let newType = type;
      if (type === 'eXIf') own = tiffGpsPatches(data, p + 8);
      else if (textNamesPlace(type, data)) {
        newType = 'tEXt';
        own = [{ offset: p + 8, bytes: emptyText(data) }];
      }
      if (own.length) {
        const patched = Buffer.from(data);
        for (const x of own) x.bytes.copy(patched, x.offset - (p + 8));
        const typeBytes = Buffer.from(newType, 'latin1');
        const crc = Buffer.alloc(4);
        crc.writeInt32BE(crc32.buf(Buffer.concat([typeBytes, patched])));
        if (newType !== type) own.push({ offset: p + 4, bytes: typeBytes });
        patches.push(...own, { offset: p + 8 + len, bytes: crc });
      }
    }
    p += 12 + len;
  }
  return patches;
}

/** Text inflated from a PNG chunk is read up to this much; a larger one counts as naming a place. */
const MAX_PNG_TEXT = 16 << 20;

function textNamesPlace(type: string, data: Buffer): boolean {
  const nul = data.indexOf(0);
  if (nul < 0) return namesPlace(data);
  const keyword = data.toString('latin1', 0, nul);
  let text: Buffer;
  try {
    if (type === 'tEXt') text = data.subarray(nul + 1);
    else if (type === 'zTXt') text = zlib.inflateSync(data.subarray(nul + 2), { maxOutputLength: MAX_PNG_TEXT });
    else {
      // iTXt: compression flag, method, language tag\0, translated keyword\0, text.
      const compressed = data[nul + 1] === 1;
      const lang = data.indexOf(0, nul + 3);
      const translated = lang < 0 ? -1 : data.indexOf(0, lang + 1);
      if (translated < 0) return namesPlace(data);
      const body = data.subarray(translated + 1);
      text = compressed ? zlib.inflateSync(body, { maxOutputLength: MAX_PNG_TEXT }) : body;
    }
  } catch {
    // Text that cannot be read cannot be shown to be free of a place.
    return true;
  }
  if (namesPlace(text) || namesPlace(Buffer.from(keyword, 'latin1'))) return true;
  // ImageMagick's and exiftool's raw profiles: "\nexif\n  <length>\n<hex...>".
  if (/^raw profile type (exif|app1)$/i.test(keyword)) {
    const hex = text.toString('latin1').trim().split('\n').slice(2).join('').replace(/[^0-9a-f]/gi, '');
    const exif = Buffer.from(hex.length % 2 ? hex.slice(0, -1) : hex, 'hex');
    const tiff = exif.toString('latin1', 0, 6) === 'Exif\0\0' ? exif.subarray(6) : exif;
    return tiffGpsPatches(tiff, 0).length > 0 || namesPlace(exif);
  }
  if (/^raw profile type/i.test(keyword)) {
    const hex = text.toString('latin1').trim().split('\n').slice(2).join('').replace(/[^0-9a-f]/gi, '');
    return namesPlace(Buffer.from(hex.length % 2 ? hex.slice(0, -1) : hex, 'hex'));
  }
  return false;
}

/** A tEXt body of the same length: the chunk's keyword (or "Comment"), a zero byte, then spaces. */
function emptyText(data: Buffer): Buffer {
  const out = Buffer.alloc(data.length, 0x20);
  const nul = data.indexOf(0);
  const keyword = nul >= 1 && nul <= 79 ? data.subarray(0, nul) : Buffer.from('Comment', 'latin1');
  if (keyword.length + 1 <= out.length) {
    keyword.copy(out, 0);
    out[keyword.length] = 0;
  }
  return out;
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
  let metaAt = 0;
  for (let i = 0; i < 64 && !meta; i++) {
    const h = await read(p, 16);
    if (h.length < 8) return [];
    let size = h.readUInt32BE(0);
    if (size === 1) size = Number(h.readBigUInt64BE(8));
    if (h.toString('latin1', 4, 8) === 'meta') {
      meta = await read(p, Math.min(size, 4 << 20));
      metaAt = p;
    }
    if (size < 8) return [];
    p += size;
  }
  if (!meta) return [];
  const boxes = children(meta, 12);
  const iinf = boxes.get('iinf');
  const iloc = boxes.get('iloc');
  if (!iinf || !iloc) return [];
  const idat = boxes.get('idat');
  const wanted = itemsOfInterest(meta, iinf);
  const places = itemExtents(meta, iloc);
  for (const id of wanted.keys()) if (!places.has(id)) throw new Error(`HEIF metadata item ${id} could not be located`);
  const patches: Patch[] = [];
  for (const [id, item] of places) {
    const kind = wanted.get(id);
    if (!kind) continue;
    // Stored in the meta box's idat (construction method 1): offsets count from its content.
    const origin = item.method === 1 ? (idat ? metaAt + idat[0] : -1) : 0;
    if (origin < 0) continue;
    const extents = item.extents.map((e) => ({ offset: origin + e.offset, length: e.length }));
    // An item may be stored in several extents: read as one, and each patch laid back where its bytes are.
    const data = Buffer.concat(await Promise.all(extents.map((e) => read(e.offset, e.length))));
    let own: Patch[] = [];
    if (kind === 'xmp') own = xmpPatch(data, 0);
    else if (data.length >= 4) {
      const tiff = 4 + data.readUInt32BE(0);
      own = tiffGpsPatches(data.subarray(tiff), tiff);
    }
    for (const x of own) patches.push(...spread(x, extents));
  }
  return patches;
}

/** A patch at an offset into an item's bytes, as patches at the file offsets of its extents. */
function spread(x: Patch, extents: readonly { offset: number; length: number }[]): Patch[] {
  const out: Patch[] = [];
  let logical = 0;
  for (const e of extents) {
    const from = Math.max(x.offset, logical);
    const to = Math.min(x.offset + x.bytes.length, logical + e.length);
    if (from < to) out.push({ offset: e.offset + (from - logical), bytes: x.bytes.subarray(from - x.offset, to - x.offset) });
    logical += e.length;
  }
  return out;
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

interface ItemPlace {
  /** 0: at file offsets; 1: inside the meta box's idat. */
  method: number;
  extents: { offset: number; length: number }[];
}

/** Where each item's bytes are (items stored in the file or in idat, in one extent or several). */
function itemExtents(b: Buffer, [start, end]: [number, number]): Map<number, ItemPlace> {
  const out = new Map<number, ItemPlace>();
  const version = b[start];
  let p = start + 4;
  const sizes = b.readUInt16BE(p);
  const [offsetSize, lengthSize, baseSize, indexSize] = [sizes >> 12, (sizes >> 8) & 15, (sizes >> 4) & 15, version > 0 ? sizes & 15 : 0];
  p += 2;
  const uint = (n: number) => {
    if (p + n > end) throw new RangeError('iloc ends early');
    const v = n === 8 ? Number(b.readBigUInt64BE(p)) : n === 4 ? b.readUInt32BE(p) : n === 2 ? b.readUInt16BE(p) : 0;
    p += n;
    return v;
  };
  try {
    const count = uint(version < 2 ? 2 : 4);
    for (let i = 0; i < count && p < end; i++) {
      const id = uint(version < 2 ? 2 : 4);
      const method = version > 0 ? uint(2) & 15 : 0;
      uint(2); // data_reference_index
      const base = uint(baseSize);
      const extents: ItemPlace['extents'] = [];
      for (let e = 0, n = uint(2); e < n; e++) {
        uint(indexSize);
        const offset = uint(offsetSize);
        const length = uint(lengthSize);
        extents.push({ offset: base + offset, length });
      }
      // Method 2 (bytes of other items) never holds metadata; a zero length ("to the end") neither.
      if ((method === 0 || method === 1) && extents.length && extents.every((e) => e.length > 0)) out.set(id, { method, extents });
    }
  } catch {
    // A truncated table: the items read so far.
  }
  return out;
}

/** Boxes whose content is read for a place: their children or their entries. */
const MOVIE_CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'udta', 'edts', 'moof', 'traf']);
/** Boxes that only ever say where a video was made (QuickTime `©xyz`, 3GPP `loci`). */
const MOVIE_PLACES = new Set(['\u00a9xyz', 'loci']);
const XMP_UUID = Buffer.from('be7acfcb97a942e89c71999491e3afac', 'hex');
/** A video's XMP larger than this is dropped without being read. */
const MAX_MOVIE_XMP = 16 << 20;
/** More boxes than any camera writes: a file built to be walked forever is refused instead. */
const MAX_MOVIE_BOXES = 200_000;

/**
 * QuickTime and MP4: every box whose value names a place is turned into a `free` box of the
 * same size full of zeros, which players and tools skip. Only box headers and the small
 * metadata boxes are read; the media data (mdat) is never touched.
 */
async function movie(read: Reader, fileSize: number): Promise<Patch[]> {
  const patches: Patch[] = [];
  let visited = 0;
  const erase = (at: number, size: number, header: number) => {
    patches.push({ offset: at + 4, bytes: Buffer.from('free', 'latin1') });
    for (let o = at + header; o < at + size; o += ZERO_RUN.length) patches.push({ offset: o, bytes: ZERO_RUN.subarray(0, Math.min(ZERO_RUN.length, at + size - o)) });
  };

  /** The boxes from `start` to `end`: [offset, size, header length, type]. */
  async function* boxes(start: number, end: number): AsyncGenerator<[number, number, number, string]> {
    for (let p = start; p + 8 <= end; ) {
      if (++visited > MAX_MOVIE_BOXES) throw new Error('too many boxes in this video');
      const h = await read(p, 16);
      if (h.length < 8) return;
      let size = h.readUInt32BE(0);
      let header = 8;
      if (size === 1) {
        if (h.length < 16) return;
        size = Number(h.readBigUInt64BE(8));
        header = 16;
      } else if (size === 0) size = end - p;
      if (size < header || p + size > end) return;
      yield [p, size, header, h.toString('latin1', 4, 8)];
      p += size;
    }
  }

  async function walk(start: number, end: number): Promise<void> {
    for await (const [at, size, header, type] of boxes(start, end)) {
      if (MOVIE_PLACES.has(type)) erase(at, size, header);
      else if (type === 'XMP_' || type === 'uuid') {
        const body = at + header + (type === 'uuid' ? 16 : 0);
        if (type === 'uuid' && !(await read(at + header, 16)).equals(XMP_UUID)) continue;
        if (at + size - body > MAX_MOVIE_XMP || namesPlace(await read(body, at + size - body))) erase(at, size, header);
      } else if (type === 'meta') await metaBox(at + header, at + size);
      else if (MOVIE_CONTAINERS.has(type)) await walk(at + header, at + size);
    }
  }

  /**
   * A metadata box: QuickTime's (children straight away) or ISO's (a version first). Its `ilst`
   * items are named by `keys` (handler mdta: `com.apple.quicktime.location.ISO6709`, `location`)
   * or by their own type (iTunes style: `©xyz`).
   */
  async function metaBox(start: number, end: number): Promise<void> {
    const first = await read(start, 8);
    const from = first.length === 8 && /^[a-z]{4}$/i.test(first.toString('latin1', 4, 8)) && first.readUInt32BE(0) >= 8 ? start : start + 4;
    const names: string[] = [];
    const lists: [number, number][] = [];
    for await (const [at, size, header, type] of boxes(from, end)) {
      if (type === 'keys' && size - header <= 1 << 20) {
        const k = await read(at + header, size - header);
        // version and flags, count, then (size, namespace, name) each.
        for (let p = 8; p + 8 <= k.length; ) {
          const n = k.readUInt32BE(p);
          if (n < 8 || p + n > k.length) break;
          names.push(k.toString('latin1', p + 8, p + n));
          p += n;
        }
      } else if (type === 'ilst') lists.push([at + header, at + size]);
      else if (MOVIE_PLACES.has(type)) erase(at, size, header);
      else if (type === 'XMP_' || type === 'uuid') await walk(at, at + size);
    }
    for (const [s, e] of lists) {
      for await (const [at, size, header, type] of boxes(s, e)) {
        const index = Buffer.from(type, 'latin1').readUInt32BE(0);
        const name = index >= 1 && index <= names.length ? names[index - 1] : type;
        if (MOVIE_PLACES.has(name) || PLACE.test(name)) erase(at, size, header);
      }
    }
  }

  await walk(0, fileSize);
  return patches;
}

const ZERO_RUN = Buffer.alloc(64 * 1024);

/** Lays the patches over `chunk`, which holds the file's bytes from `position` on. */
export function applyPatches(chunk: Buffer, position: number, patches: readonly Patch[]): void {
  for (const x of patches) {
    const from = Math.max(x.offset, position);
    const to = Math.min(x.offset + x.bytes.length, position + chunk.length);
    if (from < to) x.bytes.copy(chunk, from - position, from - x.offset, to - x.offset);
  }
}

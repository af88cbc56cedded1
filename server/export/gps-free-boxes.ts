import { namesPlace, PLACE, tiffGpsPatches, xmpPatch, type Patch, type Reader } from './gps-free-tiff.js';

// The location out of box-structured files (see gps-free.ts): HEIC/HEIF/AVIF metadata items, and
// QuickTime/MP4 boxes that name a place.

/** HEIC, HEIF, AVIF: the items of type Exif and XMP, found through the meta box's iinf and iloc. */
export async function isoBmff(read: Reader): Promise<Patch[]> {
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
export async function movie(read: Reader, fileSize: number): Promise<Patch[]> {
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

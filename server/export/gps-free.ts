import fs from 'node:fs/promises';
import zlib from 'node:zlib';
import crc32 from 'crc-32';
import { isoBmff, movie } from './gps-free-boxes.js';
import { namesPlace, tiffGpsPatches, xmpPatch, zeros, type Patch, type Reader } from './gps-free-tiff.js';

export type { Patch };

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
 * JPEG, PNG and WebP here; HEIC/HEIF/AVIF and QuickTime/MP4 in gps-free-boxes.ts; what they
 * share (EXIF's GPS directory, XMP) in gps-free-tiff.ts.
 */

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

const XMP_JPEG = ['http://ns.adobe.com/xap/1.0/\0', 'http://ns.adobe.com/xmp/extension/\0'];

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

/** Lays the patches over `chunk`, which holds the file's bytes from `position` on. */
export function applyPatches(chunk: Buffer, position: number, patches: readonly Patch[]): void {
  for (const x of patches) {
    const from = Math.max(x.offset, position);
    const to = Math.min(x.offset + x.bytes.length, position + chunk.length);
    if (from < to) x.bytes.copy(chunk, from - position, from - x.offset, to - x.offset);
  }
}

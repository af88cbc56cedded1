/**
 * A JPEG original as the book can hold it without decoding it (a PDF carries JPEG data as it is:
 * `/Filter /DCTDecode`): Huffman-coded baseline or progressive, 8 bits, grey or YCbCr. Its
 * metadata is left out (EXIF with any GPS position, XMP, IPTC, comments, thumbnails, MPF), and so
 * is anything after its end (a phone's gain map or depth picture); its colour profile is given
 * back apart, for the PDF to name its colours by. Anything else (CMYK, arithmetic coding, 12 bits,
 * a cut-off file) is `null`: the book then decodes and encodes it again.
 */
export interface JpegAsIs {
  /** The picture's own segments and scans, SOI to EOI. */
  data: Buffer;
  /** Its stored pixels (before its orientation turns them). */
  width: number;
  height: number;
  components: 1 | 3;
  /** EXIF orientation 1-8 (1 when it has none). */
  orientation: number;
  /** Its ICC profile, when it has one that fits its colours. */
  icc: Buffer | null;
}

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
/** Huffman-coded baseline, extended and progressive: what PDF readers decode. */
const SOF_READABLE = new Set([0xc0, 0xc1, 0xc2]);
const SOF_ANY = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);
const ICC_TAG = Buffer.from('ICC_PROFILE\0', 'latin1');
const EXIF_TAG = Buffer.from('Exif\0\0', 'latin1');

export function jpegAsIs(buf: Buffer): JpegAsIs | null {
  if (buf.length < 4 || buf[0] !== 0xff || buf[1] !== SOI) return null;
  const parts: Buffer[] = [buf.subarray(0, 2)];
  const icc: { seq: number; data: Buffer }[] = [];
  let frame: { width: number; height: number; components: number } | null = null;
  let orientation = 1;
  let adobeRgb = false;
  let pos = 2;
  for (;;) {
    while (pos < buf.length && buf[pos] === 0xff && buf[pos + 1] === 0xff) pos++; // fill bytes
    if (pos + 1 >= buf.length || buf[pos] !== 0xff) return null;
    const marker = buf[pos + 1];
    if (marker === EOI) {
      parts.push(buf.subarray(pos, pos + 2));
      break;
    }
    if (pos + 4 > buf.length) return null;
    const end = pos + 2 + buf.readUInt16BE(pos + 2);
    if (end > buf.length) return null;
    const body = buf.subarray(pos + 4, end);
    if (marker >= 0xe0 && marker <= 0xef) {
      // Application segments: only JFIF (APP0) and Adobe's colour transform (APP14) are kept.
      if (marker === 0xe1 && body.subarray(0, 6).equals(EXIF_TAG)) orientation = exifOrientation(body.subarray(6)) ?? orientation;
      if (marker === 0xe2 && body.subarray(0, 12).equals(ICC_TAG) && body.length > 14) icc.push({ seq: body[12], data: body.subarray(14) });
      if (marker === 0xee && body.subarray(0, 5).toString('latin1') === 'Adobe' && body.length >= 12) adobeRgb = body[11] === 0;
      if (marker === 0xe0 || marker === 0xee) parts.push(buf.subarray(pos, end));
    } else if (marker === 0xfe) {
      // A comment: left out.
    } else if (SOF_ANY.has(marker)) {
      if (!SOF_READABLE.has(marker) || body[0] !== 8) return null;
      frame = { height: body.readUInt16BE(1), width: body.readUInt16BE(3), components: body[5] };
      parts.push(buf.subarray(pos, end));
    } else if (marker === SOS) {
      // The scan's coded data runs to the next marker that is neither a stuffed 0xff00 nor a restart.
      let p = end;
      for (;;) {
        p = buf.indexOf(0xff, p);
        if (p < 0 || p + 1 >= buf.length) return null;
        const next = buf[p + 1];
        if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) p += 2;
        else if (next === 0xff) p += 1;
        else break;
      }
      parts.push(buf.subarray(pos, p));
      pos = p;
      continue;
    } else {
      parts.push(buf.subarray(pos, end)); // tables, restart interval, and the like
    }
    pos = end;
  }
  if (!frame || !frame.width || !frame.height || (frame.components !== 1 && frame.components !== 3)) return null;
  if (frame.components === 3 && adobeRgb) return null; // RGB stored without YCbCr: rare, and readers differ on it
  const profile = iccProfile(icc, frame.components);
  return { data: Buffer.concat(parts), width: frame.width, height: frame.height, components: frame.components, orientation, icc: profile };
}

/** The profile from its numbered chunks, when it is whole and describes colours like the picture's. */
function iccProfile(chunks: { seq: number; data: Buffer }[], components: number): Buffer | null {
  if (!chunks.length) return null;
  const whole = Buffer.concat(chunks.sort((a, b) => a.seq - b.seq).map((c) => c.data));
  if (whole.length < 128 || whole.readUInt32BE(0) !== whole.length) return null;
  const space = whole.subarray(16, 20).toString('latin1');
  return (components === 3 && space === 'RGB ') || (components === 1 && space === 'GRAY') ? whole : null;
}

/** IFD0's Orientation (0x0112) from a TIFF header and its first directory. */
function exifOrientation(tiff: Buffer): number | null {
  if (tiff.length < 8) return null;
  const le = tiff.toString('latin1', 0, 2) === 'II';
  if (!le && tiff.toString('latin1', 0, 2) !== 'MM') return null;
  const u16 = (o: number) => (le ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
  const u32 = (o: number) => (le ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return null;
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) return null;
    if (u16(entry) !== 0x0112) continue;
    const value = u16(entry + 8);
    return value >= 1 && value <= 8 ? value : null;
  }
  return null;
}

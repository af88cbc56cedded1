import fsp from 'node:fs/promises';

/** What a stored file really is, decided from its first bytes (never from its name or declared type). */
export interface SniffedType {
  mime:
    | 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp' | 'image/heic' | 'image/heif' | 'image/avif'
    | 'video/mp4' | 'video/quicktime' | 'video/x-msvideo' | 'video/webm' | 'video/x-m4v';
  ext: 'jpg' | 'png' | 'gif' | 'webp' | 'heic' | 'heif' | 'avif' | 'mp4' | 'mov' | 'avi' | 'webm' | 'm4v';
}

/** How many leading bytes sniff() wants to see (fewer only when the file is shorter). */
export const SNIFF_BYTES = 64;

// ISO base media brands of ordinary video files. HEIF/AVIF images share the ftyp box, so
// image brands are checked first: an iPhone HEIC also lists 'iso8'-style video brands.
const MP4_BRANDS = new Set([
  'isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'iso7', 'iso8', 'iso9',
  'mp41', 'mp42', 'mp71', 'avc1', 'f4v ', 'dash', 'MSNV', 'XAVC', '3gp4', '3gp5', '3gp6', '3g2a',
]);
const M4V_BRANDS = new Set(['M4V ', 'M4VH', 'M4VP']);
// HEVC-coded HEIF (what iPhones write) vs. the generic HEIF brands (any codec inside).
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx']);
const HEIF_BRANDS = new Set(['mif1', 'msf1', 'mif2']);
const AVIF_BRANDS = new Set(['avif', 'avis']);

function imageBrand(major: string, brands: string[]): SniffedType | null {
  // The major brand names what the file is; compatible brands only decide when it is generic.
  const pick = (b: string): SniffedType | null =>
    AVIF_BRANDS.has(b) ? { mime: 'image/avif', ext: 'avif' } : HEIC_BRANDS.has(b) ? { mime: 'image/heic', ext: 'heic' } : null;
  const byMajor = pick(major);
  if (byMajor) return byMajor;
  if (!HEIF_BRANDS.has(major) && !brands.some((b) => HEIF_BRANDS.has(b))) return null;
  for (const b of brands) {
    const t = pick(b);
    if (t) return t;
  }
  return { mime: 'image/heif', ext: 'heif' };
}

const ascii = (b: Buffer, start: number, end: number) => (b.length >= end ? b.toString('latin1', start, end) : '');

function sniffFtyp(head: Buffer): SniffedType | null {
  if (ascii(head, 4, 8) !== 'ftyp') return null;
  const major = ascii(head, 8, 12);
  const boxSize = head.readUInt32BE(0);
  const brands = [major];
  for (let o = 16; o + 4 <= Math.min(boxSize, head.length); o += 4) brands.push(ascii(head, o, o + 4));
  const image = imageBrand(major, brands);
  if (image) return image;
  if (major === 'qt  ') return { mime: 'video/quicktime', ext: 'mov' };
  if (M4V_BRANDS.has(major)) return { mime: 'video/x-m4v', ext: 'm4v' };
  if (brands.some((b) => MP4_BRANDS.has(b) || M4V_BRANDS.has(b))) return { mime: 'video/mp4', ext: 'mp4' };
  if (brands.includes('qt  ')) return { mime: 'video/quicktime', ext: 'mov' };
  return null;
}

/** The accepted type of a file from its first bytes, or null when it is anything else. */
export function sniff(head: Buffer): SniffedType | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return { mime: 'image/jpeg', ext: 'jpg' };
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return { mime: 'image/png', ext: 'png' };
  }
  const six = ascii(head, 0, 6);
  if (six === 'GIF87a' || six === 'GIF89a') return { mime: 'image/gif', ext: 'gif' };
  if (ascii(head, 0, 4) === 'RIFF') {
    const form = ascii(head, 8, 12);
    if (form === 'WEBP') return { mime: 'image/webp', ext: 'webp' };
    if (form === 'AVI ') return { mime: 'video/x-msvideo', ext: 'avi' };
    return null;
  }
  if (head.length >= 12) return sniffFtyp(head) ?? sniffWebm(head);
  return null;
}

const EBML_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);
// DocType element (0x4282), length 4 (0x84), then the name: "webm" only, not any Matroska file.
const WEBM_DOCTYPE = Buffer.from([0x42, 0x82, 0x84, 0x77, 0x65, 0x62, 0x6d]);

/** WebM: an EBML header whose DocType is "webm" (it sits within the first few dozen bytes). */
function sniffWebm(head: Buffer): SniffedType | null {
  if (!head.subarray(0, 4).equals(EBML_MAGIC)) return null;
  return head.subarray(0, SNIFF_BYTES).includes(WEBM_DOCTYPE) ? { mime: 'video/webm', ext: 'webm' } : null;
}

export const UNSUPPORTED_TYPE = 'errors.uploads.unsupported_type';

/** sniff() of a file on disk. */
export async function sniffFile(file: string): Promise<SniffedType | null> {
  const head = Buffer.alloc(SNIFF_BYTES);
  const handle = await fsp.open(file, 'r');
  const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0).finally(() => handle.close());
  return sniff(head.subarray(0, bytesRead));
}

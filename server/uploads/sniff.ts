/** What a stored file really is, decided from its first bytes (never from its name or declared type). */
export interface SniffedType {
  mime: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp' | 'video/mp4' | 'video/quicktime' | 'video/x-msvideo';
  ext: 'jpg' | 'png' | 'gif' | 'webp' | 'mp4' | 'mov' | 'avi';
}

/** How many leading bytes sniff() wants to see (fewer only when the file is shorter). */
export const SNIFF_BYTES = 64;

// ISO base media brands of ordinary video files. HEIF/AVIF images share the ftyp box,
// so their brands are listed separately and always refused (they are not accepted types).
const MP4_BRANDS = new Set([
  'isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'iso7', 'iso8', 'iso9',
  'mp41', 'mp42', 'mp71', 'avc1', 'M4V ', 'M4VH', 'M4VP', 'f4v ', 'dash', 'MSNV', 'XAVC', '3gp4', '3gp5', '3gp6', '3g2a',
]);
const IMAGE_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1', 'avif', 'avis', 'miaf']);

const ascii = (b: Buffer, start: number, end: number) => (b.length >= end ? b.toString('latin1', start, end) : '');

function sniffFtyp(head: Buffer): SniffedType | null {
  if (ascii(head, 4, 8) !== 'ftyp') return null;
  const major = ascii(head, 8, 12);
  const boxSize = head.readUInt32BE(0);
  const brands = [major];
  for (let o = 16; o + 4 <= Math.min(boxSize, head.length); o += 4) brands.push(ascii(head, o, o + 4));
  if (brands.some((b) => IMAGE_BRANDS.has(b))) return null;
  if (major === 'qt  ') return { mime: 'video/quicktime', ext: 'mov' };
  if (brands.some((b) => MP4_BRANDS.has(b))) return { mime: 'video/mp4', ext: 'mp4' };
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
  if (head.length >= 12) return sniffFtyp(head);
  return null;
}

export const UNSUPPORTED_TYPE =
  'This file type is not supported. Please upload a photo (JPEG, PNG, GIF, WebP) or a video (MP4, MOV, AVI).';

import exifr from 'exifr';
import sharp from 'sharp';

export interface ExifFacts {
  /** ISO 8601: with the offset when the camera recorded one (OffsetTimeOriginal), else the wall-clock time marked Z. */
  dateTaken: string | null;
  cameraMake: string | null;
  cameraModel: string | null;
  orientation: number | null;
}

const NONE: ExifFacts = { dateTaken: null, cameraMake: null, cameraModel: null, orientation: null };

const clean = (v: unknown): string | null => {
  if (typeof v !== 'string') return null;
  // NUL padding: cameras fill fixed-size string fields with it.
  const s = v.replace(/\u0000/g, '').trim();
  return s ? s.slice(0, 100) : null;
};

/**
 * EXIF times have no zone. They are stored as the wall-clock time the camera showed, written
 * with "Z" so every client displays the same clock reading; when the camera also recorded
 * OffsetTimeOriginal (most phones since 2018) the real offset is used instead.
 */
export function exifDateToIso(raw: unknown, offset?: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const m = /^(\d{4}):(\d{2}):(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(raw.trim());
  if (!m || m[1] === '0000') return null;
  const zone = typeof offset === 'string' && /^[+-]\d{2}:\d{2}$/.test(offset.trim()) ? offset.trim() : 'Z';
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${zone}`;
}

/**
 * exifr finds EXIF in JPEG, PNG, WebP and iPhone HEIC files, but not in every HEIF writer's
 * layout (libheif's own AVIF/HEIF files): then the block libvips found is read instead, the one
 * given (`header`: from a sharp instance that read the file's header already; null: none) or
 * else looked for.
 */
async function exifBlock(input: string | Buffer, header?: Buffer | null): Promise<Record<string, unknown> | undefined> {
  const parsed = await exifr.parse(input, OPTIONS).catch(() => undefined);
  // exifr answers a block it cannot read with only {errors}.
  if (parsed && Object.keys(parsed).some((k) => k !== 'errors')) return parsed;
  const raw = header === undefined ? (await sharp(input).metadata().catch(() => null))?.exif : header;
  // libvips hands the block with its "Exif\0\0" prefix; exifr wants the TIFF structure after it.
  const tiff = raw && raw.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? raw.subarray(6) : raw;
  return tiff ? exifr.parse(tiff, OPTIONS).catch(() => undefined) : undefined;
}

/**
 * Date, camera and orientation from a photo's EXIF (the file, or its bytes already read); a
 * missing or malformed block gives nulls, never an error.
 */
export async function readExif(input: string | Buffer, header?: Buffer | null): Promise<ExifFacts> {
  try {
    const t = await exifBlock(input, header);
    if (!t) return NONE;
    const orientation = typeof t.Orientation === 'number' && t.Orientation >= 1 && t.Orientation <= 8 ? t.Orientation : null;
    return {
      dateTaken: exifDateToIso(t.DateTimeOriginal ?? t.CreateDate ?? t.DateTime, t.OffsetTimeOriginal ?? t.OffsetTime),
      cameraMake: clean(t.Make),
      cameraModel: clean(t.Model),
      orientation,
    };
  } catch {
    return NONE;
  }
}

const OPTIONS = {
  tiff: true,
  exif: true,
  gps: false,
  xmp: false,
  icc: false,
  iptc: false,
  jfif: false,
  ihdr: false,
  translateValues: false,
  reviveValues: false,
  mergeOutput: true,
};

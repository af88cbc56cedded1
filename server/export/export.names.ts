/**
 * Names inside the archive and of the archive itself. Entry names read like a photo
 * library: "2025-06-07 16-42-10 Canon EOS 40D - IMG_0042.jpg".
 */

import { INVISIBLE_CHARS, withRealExtension } from '../photos/file-names.js';

/** Filesystems cap names at 255 bytes; leave room for " (12345)". */
const MAX_NAME_BYTES = 200;

/** Wall-clock parts of a stored timestamp, read from its digits so no time zone shifts them. */
export interface ClockTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** Accepts "2025-06-07T16:42:10", "2025-06-07 16:42:10.123Z" and EXIF's "2025:06:07 16:42:10". */
export function parseClockTime(value: string | null | undefined): ClockTime | null {
  if (!value) return null;
  const m = /^(\d{4})[-:](\d{2})[-:](\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(value.trim());
  if (!m) return null;
  const t = { year: +m[1], month: +m[2], day: +m[3], hour: +(m[4] ?? 0), minute: +(m[5] ?? 0), second: +(m[6] ?? 0) };
  if (t.year < 1900 || t.month < 1 || t.month > 12 || t.day < 1 || t.day > 31 || t.hour > 23 || t.minute > 59 || t.second > 60) return null;
  return t;
}

const pad = (n: number) => String(n).padStart(2, '0');

export function formatClockTime(t: ClockTime): string {
  return `${t.year}-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}-${pad(t.minute)}-${pad(t.second)}`;
}

/** The entry's modification time; ZIP keeps wall-clock fields, which archiver fills from UTC getters. */
export function clockTimeToZipDate(t: ClockTime): Date {
  return new Date(Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, Math.min(t.second, 59)));
}

/** "Canon EOS 40D" rather than "Canon Canon EOS 40D"; "Apple iPhone 6" keeps both. */
export function cameraLabel(make: string | null, model: string | null): string {
  const mk = (make ?? '').trim().replace(/\s+/g, ' ');
  const md = (model ?? '').trim().replace(/\s+/g, ' ');
  if (!md) return mk;
  if (!mk) return md;
  const firstWord = mk.split(' ')[0].toLowerCase();
  if (md.toLowerCase().startsWith(mk.toLowerCase()) || md.toLowerCase().startsWith(firstWord)) return md;
  return `${mk} ${md}`;
}

function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** Cuts whole code points from the end until the text fits. */
function truncateBytes(s: string, max: number): string {
  if (byteLength(s) <= max) return s;
  const chars = Array.from(s);
  while (chars.length && byteLength(chars.join('')) > max) chars.pop();
  return chars.join('').trimEnd();
}

/**
 * One path segment safe on every desktop: no slashes or characters Windows refuses, no
 * control characters, no leading dots (hidden or "..") and no trailing dots or spaces.
 */
export function sanitizeSegment(name: string, fallback = 'photo'): string {
  let s = name
    .normalize('NFC')
    .replace(INVISIBLE_CHARS, '')
    .replace(/[/\\:*?"<>|]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '');
  if (!s) s = fallback;
  return s;
}

function splitExtension(name: string): [string, string] {
  const m = /^(.+?)(\.[A-Za-z0-9]{1,8})$/.exec(name);
  return m ? [m[1], m[2]] : [name, ''];
}

export interface NameSource {
  original_filename: string;
  content_type: string;
  date_taken: string | null;
  upload_timestamp: string;
  camera_make: string | null;
  camera_model: string | null;
}

/** "<date taken or uploaded> <camera> - <original name>", sanitized and bounded in length. */
export function entryName(p: NameSource): string {
  const when = parseClockTime(p.date_taken) ?? parseClockTime(p.upload_timestamp);
  const camera = sanitizeSegment(cameraLabel(p.camera_make, p.camera_model), '');
  // A guest's "x.hta" that is really a JPEG is saved as "x.hta.jpg".
  const [stem, ext] = splitExtension(withRealExtension(sanitizeSegment(p.original_filename), p.content_type));
  const prefix = [when ? formatClockTime(when) : '', camera].filter(Boolean).join(' ');
  let base = prefix ? `${prefix} - ${stem}` : stem;
  base = truncateBytes(base, MAX_NAME_BYTES - byteLength(ext));
  return sanitizeSegment(base + ext);
}

/** Keeps names unique the way desktops do, ignoring case: "a.jpg", "a (2).jpg", "a (3).jpg". */
export class UniqueNames {
  private readonly taken = new Set<string>();
  /** Where counting resumes for a name, so thousands of "image.jpg" stay linear. */
  private readonly next = new Map<string, number>();

  reserve(name: string): void {
    this.taken.add(name.toLowerCase());
  }

  claim(name: string): string {
    const key = name.toLowerCase();
    let candidate = name;
    if (this.taken.has(key)) {
      const [stem, ext] = splitExtension(name);
      let n = this.next.get(key) ?? 2;
      while (this.taken.has((candidate = `${stem} (${n})${ext}`).toLowerCase())) n++;
      this.next.set(key, n + 1);
    }
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}

/** ASCII for the plain filename= parameter; accents dropped, anything else becomes a dash. */
function asciiSlug(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

function unicodeSlug(s: string): string {
  return sanitizeSegment(s, '')
    .replace(/[\s_]+/g, '-')
    .replace(/[^\p{L}\p{N}-]+/gu, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export type ExportKind = 'all' | 'visible' | 'selected';

/** An archive's name twice: plain ASCII for old clients, and with the couple's names as written. */
export interface ArchiveFileName {
  ascii: string;
  unicode: string;
}

/** "Emma-and-James-wedding-photos-2026-06-07.zip" ("-visible" / "-selected" before the date). */
export function archiveFileName(coupleNames: readonly string[], kind: ExportKind, today: Date): ArchiveFileName {
  const names = coupleNames.map((n) => n.trim()).filter(Boolean);
  const who = names.join(' and ');
  const date = `${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`;
  const tail = `wedding-photos${kind === 'all' ? '' : `-${kind}`}-${date}.zip`;
  const a = asciiSlug(who);
  const u = unicodeSlug(who);
  return { ascii: a ? `${a}-${tail}` : tail, unicode: u ? `${u}-${tail}` : tail };
}

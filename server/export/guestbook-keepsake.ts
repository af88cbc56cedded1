import path from 'node:path';
import { directionOf, translate } from '../i18n/messages.js';
import { wallClockAt } from '../settings/moments.js';
import { formatClockTime, parseClockTime, sanitizeSegment, type UniqueNames } from './export.names.js';

/** A visible guestbook message as the export reads it. */
export interface ExportMessage {
  id: string;
  name: string | null;
  message: string;
  created_at: string;
  duration: number | null;
  /** The voice note as sent (relative to DATA_DIR), and its type. */
  audio_path: string | null;
  audio_type: string | null;
}

export const GUESTBOOK_FOLDER = 'guestbook';
export const KEEPSAKE_NAME = `${GUESTBOOK_FOLDER}/guestbook.html`;

/** The wedding's local time of an instant as ZIP and file names want it (wall-clock digits). */
export function localClock(iso: string, timeZone: string) {
  const t = Date.parse(iso);
  return parseClockTime(Number.isNaN(t) ? iso : new Date(wallClockAt(t, timeZone)).toISOString());
}

/** "guestbook/voice-notes/2026-06-07 21-30-05 Anna.webm": when, in the wedding's time, and who. */
export function voiceNoteName(m: ExportMessage, timeZone: string, names: UniqueNames): string {
  const when = localClock(m.created_at, timeZone);
  const who = sanitizeSegment(m.name ?? '', '').slice(0, 60);
  const ext = path.extname(m.audio_path ?? '') || '.audio';
  const stem = [when ? formatClockTime(when) : '', who].filter(Boolean).join(' ') || 'voice note';
  return names.claim(`${GUESTBOOK_FOLDER}/voice-notes/${sanitizeSegment(stem, 'voice note')}${ext}`);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const minutes = (s: number) => `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`;

/**
 * The printable keepsake: every visible message with its name and time, oldest first, in one
 * HTML file with its styles inside and nothing fetched from anywhere. A voice note is a link to
 * its file beside the page in the archive (a player where the browser can play it). In the
 * couple's language (`lang`, their default_language).
 */
export function keepsakeHtml(o: { couple: string; timeZone: string; lang: string; messages: { m: ExportMessage; file: string | null }[] }): Buffer {
  const t = (key: string, values?: Record<string, string | number>) => translate(o.lang, key, values);
  const title = t('keepsake.title');
  const when = new Intl.DateTimeFormat(o.lang, { timeZone: o.timeZone, dateStyle: 'long', timeStyle: 'short' });
  const items = o.messages.map(({ m, file }) => {
    const rel = file ? file.slice(GUESTBOOK_FOLDER.length + 1) : null;
    const voice = rel
      ? `<p class="voice"><a href="${escapeHtml(encodeURI(rel))}">${escapeHtml(t('keepsake.voice_note', { duration: minutes(m.duration ?? 0) }))}</a><audio controls preload="none" src="${escapeHtml(encodeURI(rel))}"></audio></p>`
      : '';
    return `<article><p class="text">${escapeHtml(m.message)}</p><p class="by"><span class="name">${escapeHtml(m.name ?? t('keepsake.anonymous'))}</span> · <time datetime="${escapeHtml(m.created_at)}">${escapeHtml(when.format(new Date(m.created_at)))}</time></p>${voice}</article>`;
  });
  const html = `<!doctype html>
<html lang="${escapeHtml(o.lang)}" dir="${directionOf(o.lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${o.couple} · ${title}`)}</title>
<style>
body{font-family:Georgia,'Times New Roman',serif;color:#2b2b2b;background:#fffdf9;max-width:44rem;margin:0 auto;padding:2.5rem 1.25rem;line-height:1.55}
h1{font-weight:normal;text-align:center;font-size:2.2rem;margin:0 0 .25rem}
.couple{text-align:center;font-size:1.2rem;margin:0}.intro{text-align:center;color:#6b6259;margin:.5rem 0 2.5rem}
article{border-top:1px solid #e6ddd2;padding:1.25rem 0;break-inside:avoid;page-break-inside:avoid}
.text{white-space:pre-wrap;font-size:1.15rem;margin:0 0 .5rem}.by{color:#6b6259;margin:0;font-style:italic}.name{font-style:normal;font-weight:bold;color:#2b2b2b}
.voice{margin:.5rem 0 0}.voice audio{display:block;margin-top:.35rem;width:100%}
@media print{body{background:#fff;padding:0}.voice audio{display:none}a{color:inherit;text-decoration:none}}
</style></head><body>
<h1>${escapeHtml(title)}</h1><p class="couple">${escapeHtml(o.couple)}</p>
<p class="intro">${escapeHtml(o.messages.length ? t('keepsake.intro', { count: o.messages.length }) : t('keepsake.empty'))}</p>
${items.join('\n')}
</body></html>
`;
  return Buffer.from(html, 'utf8');
}

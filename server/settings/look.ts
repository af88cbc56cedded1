import { msg, type Message } from '../../common/languages.js';
import { normalizeHex } from '../../common/contrast.js';
import { THEME_IDS, themeById, usableAccent, type Theme } from '../../common/themes.js';
import type { WeddingSettings } from './settings.defaults.js';

/** The settings keys of the wedding's look. */
export const LOOK_KEYS = ['theme', 'accent_color', 'cover_photo_id'] as const;

const PHOTO_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Validates the look's keys of a settings change; problems are added to `problems`. */
export function parseLook(b: Record<string, unknown>, problems: Message[]): Partial<WeddingSettings> {
  const out: Partial<WeddingSettings> = {};
  if (b.theme !== undefined) {
    if (typeof b.theme === 'string' && THEME_IDS.includes(b.theme)) out.theme = b.theme;
    else problems.push(msg('errors.settings.theme', { themes: THEME_IDS.join(', ') }));
  }
  if (b.accent_color !== undefined) {
    const hex = b.accent_color === null || b.accent_color === '' ? null : normalizeHex(b.accent_color);
    if (hex === null && b.accent_color !== null && b.accent_color !== '') problems.push(msg('errors.settings.accent_color'));
    else out.accent_color = hex;
  }
  if (b.cover_photo_id !== undefined) {
    if (b.cover_photo_id === null) out.cover_photo_id = null;
    else if (typeof b.cover_photo_id === 'string' && PHOTO_ID.test(b.cover_photo_id)) out.cover_photo_id = b.cover_photo_id;
    else problems.push(msg('errors.settings.cover_photo_id'));
  }
  return out;
}

/** What a page needs of the look: the theme, the accent as it will be used (or none). */
export interface Look {
  theme: Theme;
  accent: string | null;
}

export function lookOf(s: Pick<WeddingSettings, 'theme' | 'accent_color'>): Look {
  const theme = themeById(s.theme);
  return { theme, accent: s.accent_color ? usableAccent(theme, s.accent_color) : null };
}

/** Where the cover shows from: the uploaded image, else the chosen photo's display copy. */
export function coverUrl(s: Pick<WeddingSettings, 'cover_image' | 'cover_photo_id'>, photoShowable: boolean): string | null {
  if (s.cover_image) return `/api/cover/${s.cover_image}.webp`;
  if (s.cover_photo_id && photoShowable) return `/media/${s.cover_photo_id}/display`;
  return null;
}

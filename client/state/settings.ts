import { signal } from '@preact/signals-react';
import type { PublicSettingsResponse, WeddingSettings } from '../../common/api-types';
import { getJson } from '../api/http';
import { t, titleNames } from '../i18n';

/** The wedding content from GET /api/settings; null until loaded. */
export const settings = signal<WeddingSettings | null>(null);
/** The cover image's address (home page, idle wall), or null. */
export const coverUrl = signal<string | null>(null);

let loading: Promise<void> | undefined;
/** Bumped by every saved change, so a read that started before it cannot put old values back. */
let writes = 0;

export function loadSettings(force = false): Promise<void> {
  if (loading && !force) return loading;
  const startedAt = writes;
  loading = getJson<PublicSettingsResponse>('/api/settings')
    .then((r) => {
      if (writes !== startedAt) return;
      settings.value = r.settings;
      coverUrl.value = r.cover_url ?? null;
      titleNames(r.settings.couple_names);
    })
    .catch((err) => {
      console.error('Could not load the wedding settings', err);
      loading = undefined;
    });
  return loading;
}

/** The settings as the server answered a change to them. */
export function settingsSaved(saved: WeddingSettings, cover?: string | null): void {
  writes++;
  settings.value = saved;
  if (cover !== undefined) coverUrl.value = cover;
  titleNames(saved.couple_names);
}

/** "{name} and {name}" */
export function coupleNames(s: WeddingSettings | null): string {
  return s ? t('app.couple_names', { first: s.couple_names[0], second: s.couple_names[1] }) : '';
}

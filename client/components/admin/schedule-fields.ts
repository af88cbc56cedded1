import type { ScheduleItem } from '../../../common/api-types';

export type TextKey = Exclude<keyof ScheduleItem, 'starts_at' | 'ends_at' | 'moment'>;

/** A schedule item's texts and their labels, for the settings page and its other languages. */
export const SCHEDULE_FIELDS: { key: TextKey; label: string; long?: boolean }[] = [
  { key: 'title', label: 'admin.settings.field.title' },
  { key: 'day', label: 'admin.settings.field.day' },
  { key: 'time', label: 'admin.settings.field.time' },
  { key: 'venue', label: 'admin.settings.field.venue' },
  { key: 'location', label: 'admin.settings.field.location' },
  { key: 'attire', label: 'admin.settings.field.attire' },
  { key: 'attendance', label: 'admin.settings.field.attendance' },
  { key: 'description', label: 'admin.settings.field.description', long: true },
];

/** The guest pages' long texts: the settings page's field id, the setting, its translation and its label. */
export const LONG_TEXTS = [
  { id: 'st-welcome', key: 'welcome_message', translation: 'welcome_text', label: 'admin.settings.welcome' },
  { id: 'st-sharing', key: 'photo_sharing_message', translation: 'photo_sharing_text', label: 'admin.settings.sharing' },
  { id: 'st-thanks', key: 'thank_you_message', translation: 'thank_you_text', label: 'admin.settings.thanks' },
] as const;

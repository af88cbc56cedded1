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

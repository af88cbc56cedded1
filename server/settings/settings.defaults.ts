import type { WeddingSettings } from '../../common/api-types.js';
import { DEFAULT_THEME } from '../../common/themes.js';
import type { AccountSettings } from '../../common/security-types.js';
import { emptyNotify } from './notify-settings.js';

/** The wedding content the pages show: declared once, for server and client, in common/api-types.ts. */
export type { ScheduleItem, WeddingSettings } from '../../common/api-types.js';

/**
 * Everything the settings record holds: the wedding content and the admin-only settings, and
 * `notify_site_url`: the address an admin last saved the notification settings from (links in
 * messages point there when PUBLIC_URL is not set). It is set only by such a save, never sent
 * in an answer, and a PUT cannot name it.
 */
export type SiteSettings = WeddingSettings & AccountSettings & { notify_site_url?: string | null };

/** The keys only admins see (GET /admin/api/settings, masked where secret); the public answer leaves them out. */
export const ADMIN_ONLY_KEYS = ['require_two_step', 'notify'] as const satisfies readonly (keyof AccountSettings)[];

/** SPEC §2's schedule, the content a fresh install starts with. */
export function defaultSettings(): SiteSettings {
  return {
    couple_names: ['Emma', 'James'],
    welcome_message:
      'We are so happy you are here to celebrate with us. Below you will find everything you need for the weekend, and a place to share the moments you capture.',
    photo_sharing_message:
      'Scan the QR code at your table or in your welcome gift to share the photos and videos you take. Every memory helps us relive the day.',
    thank_you_message:
      'Thank you for traveling near and far, for your love and support, and for being part of our story. We could not imagine this weekend without you.',
    schedule: [
      {
        title: 'Welcome Party',
        day: 'Friday, 6 June 2025',
        time: '7:00-9:00 PM',
        venue: 'The Tidewater Inn',
        location: 'Easton, Maryland',
        attire: 'Cocktail attire',
        attendance: 'All invited guests welcome',
        description: 'Drinks and light bites to kick off the weekend.',
      },
      {
        title: 'Ceremony & Reception',
        day: 'Saturday, 7 June 2025',
        time: '4:30-11:00 PM',
        venue: 'Wye River Manor',
        location: 'Queenstown, Maryland',
        attire: 'Formal attire',
        attendance: 'Only the people listed on the invitation may attend',
        description: 'The ceremony on the lawn, followed by dinner and dancing.',
      },
      {
        title: 'Goodbye Brunch',
        day: 'Sunday, 8 June 2025',
        time: '10:00 AM-12:00 PM',
        venue: 'Wye River Manor',
        location: 'Queenstown, Maryland',
        attire: 'Casual',
        attendance: 'All invited guests welcome',
        description: 'One last coffee together before everyone heads home.',
      },
    ],
    uploads_enabled: true,
    moderation: 'manual',
    gallery_opens_at: null,
    wall_paused: false,
    time_zone: serverTimeZone(),
    show_uploader_names: true,
    default_language: 'en',
    translations: {},
    face_search: false,
    face_search_until: null,
    theme: DEFAULT_THEME,
    accent_color: null,
    cover_photo_id: null,
    cover_image: null,
    require_two_step: false,
    notify: emptyNotify(),
    guest_downloads: true,
    wall_source: 'all',
    wall_layout: 'single',
    wall_blank: false,
    tables: 0,
    challenges: [],
    shot_limit: null,
    frame: null,
  };
}

/** The zone this server runs in (TZ), the wedding's until the couple picks one. */
export function serverTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

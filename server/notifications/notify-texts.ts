import type { NotifyEvent } from '../../common/security-types.js';

/**
 * Every text a notification carries (ntfy, webhook, e-mail), in one place so that the message
 * layer can take them over as they are: one key per text, ICU-style placeholders, plural forms
 * chosen by `count`. Written in English until the catalogues exist; sent in the wedding's
 * default language then.
 */
export interface NotifyParams {
  count?: number;
  percent?: number;
  used?: string;
  limit?: string;
  filename?: string;
  tool?: string;
  couple?: string;
}

const plural = (n: number | undefined, one: string, other: string) => (n === 1 ? one : other).replace('{count}', String(n ?? 0));

const TEXTS: Record<NotifyEvent, (p: NotifyParams) => { title: string; text: string }> = {
  photos_waiting: (p) => ({
    title: 'Photos waiting for approval',
    text: plural(p.count, '1 photo is waiting for your approval.', '{count} photos are waiting for your approval.'),
  }),
  messages_waiting: (p) => ({
    title: 'Guestbook messages waiting',
    text: plural(p.count, '1 guestbook message is waiting for your approval.', '{count} guestbook messages are waiting for your approval.'),
  }),
  storage_80: (p) => ({
    title: 'Storage is filling up',
    text: `Photos and videos now take ${p.percent}% of the space set aside for them (${p.used} of ${p.limit}).`,
  }),
  storage_95: (p) => ({
    title: 'Storage is almost full',
    text: `Photos and videos now take ${p.percent}% of the space set aside for them (${p.used} of ${p.limit}). Guests cannot upload once it is full: free some space or raise the limit.`,
  }),
  storage_full: (p) => ({
    title: 'Uploads refused: no room left',
    text: plural(
      p.count,
      'An upload was refused because there is no room left. Free some space or raise the storage limit.',
      '{count} uploads were refused because there is no room left. Free some space or raise the storage limit.',
    ),
  }),
  processing_failed: (p) => ({
    title: p.count === 1 ? 'A file could not be processed' : 'Files could not be processed',
    text: p.count === 1 && p.filename ? `"${p.filename}" could not be processed. It is kept; the photos page says why.` : plural(p.count, '1 file could not be processed.', '{count} files could not be processed. They are kept; the photos page says why.'),
  }),
  tool_missing: (p) => ({
    title: 'A tool is missing',
    text: `${p.tool} is not installed, so some files cannot be prepared. They wait until it is installed and the site restarted.`,
  }),
  test: () => ({
    title: 'Test message',
    text: 'This is a test from your wedding website: notifications reach you here.',
  }),
};

export function notifyText(event: NotifyEvent, p: NotifyParams): { title: string; text: string } {
  const t = TEXTS[event](p);
  return { title: p.couple ? `${p.couple}: ${t.title}` : t.title, text: t.text };
}

/** "Open the approval queue" and the like, under the text of an e-mail. */
export const OPEN_LINK = 'Open: {url}';

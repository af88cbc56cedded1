import type { NotifyEvent } from '../../common/security-types.js';
import { translate } from '../i18n/messages.js';

/** What a notification says, in `lang` (the catalogue's notify.* entries). */
export interface NotifyParams {
  count?: number;
  percent?: number;
  used?: string;
  limit?: string;
  filename?: string;
  tool?: string;
  /** What went wrong, already in words (the off-site copy's problem). */
  problem?: string;
  couple?: string;
}

type Texts = (p: NotifyParams, tr: (key: string, values?: Record<string, string | number>) => string) => { title: string; text: string };

// Every key written whole: the catalogue check finds keys by their literal text.
const TEXTS: Record<NotifyEvent, Texts> = {
  photos_waiting: (p, tr) => ({ title: tr('notify.photos_waiting.title'), text: tr('notify.photos_waiting.text', { count: p.count ?? 0 }) }),
  messages_waiting: (p, tr) => ({ title: tr('notify.messages_waiting.title'), text: tr('notify.messages_waiting.text', { count: p.count ?? 0 }) }),
  storage_80: (p, tr) => ({ title: tr('notify.storage_80.title'), text: tr('notify.storage_80.text', { percent: p.percent ?? 0, used: p.used ?? '', limit: p.limit ?? '' }) }),
  storage_95: (p, tr) => ({ title: tr('notify.storage_95.title'), text: tr('notify.storage_95.text', { percent: p.percent ?? 0, used: p.used ?? '', limit: p.limit ?? '' }) }),
  storage_full: (p, tr) => ({ title: tr('notify.storage_full.title'), text: tr('notify.storage_full.text', { count: p.count ?? 0 }) }),
  processing_failed: (p, tr) => ({
    title: tr('notify.processing_failed.title', { count: p.count ?? 0 }),
    text: p.count === 1 && p.filename ? tr('notify.processing_failed.named', { filename: p.filename }) : tr('notify.processing_failed.text', { count: p.count ?? 0 }),
  }),
  tool_missing: (p, tr) => ({ title: tr('notify.tool_missing.title'), text: tr('notify.tool_missing.text', { tool: p.tool ?? '' }) }),
  offsite_failing: (p, tr) => ({ title: tr('notify.offsite_failing.title'), text: tr('notify.offsite_failing.text', { problem: p.problem ?? '' }) }),
  test: (_p, tr) => ({ title: tr('notify.test.title'), text: tr('notify.test.text') }),
};

export function notifyText(event: NotifyEvent, p: NotifyParams, lang = 'en'): { title: string; text: string } {
  const tr = (key: string, values?: Record<string, string | number>) => translate(lang, key, values);
  const t = TEXTS[event](p, tr);
  return { title: p.couple ? tr('notify.title_with_couple', { couple: p.couple, title: t.title }) : t.title, text: t.text };
}

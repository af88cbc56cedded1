import type { NotifyEvent } from '../../common/security-types.js';
import { msg, plural } from '../security/messages.js';

/** What a notification says: its texts come from the feature's message list (security/messages.ts). */
export interface NotifyParams {
  count?: number;
  percent?: number;
  used?: string;
  limit?: string;
  filename?: string;
  tool?: string;
  couple?: string;
}

const TEXTS: Record<NotifyEvent, (p: NotifyParams) => { title: string; text: string }> = {
  photos_waiting: (p) => ({ title: msg('notify.photos_waiting.title'), text: plural('notify.photos_waiting', p.count ?? 0) }),
  messages_waiting: (p) => ({ title: msg('notify.messages_waiting.title'), text: plural('notify.messages_waiting', p.count ?? 0) }),
  storage_80: (p) => ({ title: msg('notify.storage_80.title'), text: msg('notify.storage_80.text', { percent: p.percent ?? 0, used: p.used ?? '', limit: p.limit ?? '' }) }),
  storage_95: (p) => ({ title: msg('notify.storage_95.title'), text: msg('notify.storage_95.text', { percent: p.percent ?? 0, used: p.used ?? '', limit: p.limit ?? '' }) }),
  storage_full: (p) => ({ title: msg('notify.storage_full.title'), text: plural('notify.storage_full', p.count ?? 0) }),
  processing_failed: (p) => ({
    title: plural('notify.processing_failed.title', p.count ?? 0),
    text: p.count === 1 && p.filename ? msg('notify.processing_failed.named', { filename: p.filename }) : plural('notify.processing_failed', p.count ?? 0),
  }),
  tool_missing: (p) => ({ title: msg('notify.tool_missing.title'), text: msg('notify.tool_missing.text', { tool: p.tool ?? '' }) }),
  test: () => ({ title: msg('notify.test.title'), text: msg('notify.test.text') }),
};

export function notifyText(event: NotifyEvent, p: NotifyParams): { title: string; text: string } {
  const t = TEXTS[event](p);
  return { title: p.couple ? msg('notify.title_with_couple', { couple: p.couple, title: t.title }) : t.title, text: t.text };
}

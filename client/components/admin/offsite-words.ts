import type { OffsiteStatusView } from '../../../common/offsite-types';
import { language } from '../../i18n';
import { formatBytes } from './format';
import { formatNumber, t } from './t';

/** "3 minutes ago" in the page's language (Intl's own grammar: "vor 3 Minuten", "3 分前"). */
export function timeAgo(iso: string, now = Date.now()): string {
  const f = new Intl.RelativeTimeFormat(language.value, { numeric: 'always' });
  const seconds = Math.max(1, Math.floor((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return f.format(-seconds, 'second');
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return f.format(-minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return f.format(-hours, 'hour');
  return f.format(-Math.floor(hours / 24), 'day');
}

/** The dashboard's line: "Off-site copy: 2,981 of 3,000 files, database 3 minutes ago". */
export function offsiteLine(s: OffsiteStatusView, now = Date.now()): string {
  const files = { copied: formatNumber(s.files_copied), total: s.files_total };
  const at = s.database?.last_copy_at;
  return at ? t('admin.offsite.line', { ...files, when: timeAgo(at, now) }) : t('admin.offsite.line_no_database', files);
}

/** What the copy is doing, in one sentence. */
export function stateText(s: OffsiteStatusView): string {
  switch (s.state) {
    case 'ok':
      return t('admin.offsite.state_ok');
    case 'behind':
      return t('admin.offsite.state_behind');
    case 'failing':
      return t('admin.offsite.state_failing');
    default:
      return t('admin.offsite.state_off');
  }
}

/** "2,981 of 3,000 files copied (1.2 GB of 1.3 GB)". */
export const filesText = (s: OffsiteStatusView): string =>
  t('admin.offsite.files', { copied: formatNumber(s.files_copied), total: s.files_total, size_copied: formatBytes(s.bytes_copied), size_total: formatBytes(s.bytes_total) });

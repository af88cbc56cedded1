import { t } from '../i18n';
import { MAX_RETRIES } from './constants';
import { MSG } from './messages';
import type { UploadItem } from './types';

export { formatSize } from '../i18n/format';

/** SPEC §2's three kinds of file. */
export function fileKind(type: string): 'video' | 'photo' | 'file' {
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('image/')) return 'photo';
  return 'file';
}

const KIND_LABELS = { video: 'upload.kind.video', photo: 'upload.kind.photo', file: 'upload.kind.file' } as const;

/** SPEC §2: Video, Photo or File, in the page's language. */
export const fileLabel = (type: string): string => t(KIND_LABELS[fileKind(type)]);

/** The line under each file in the upload box. */
export function statusText(item: UploadItem): string {
  switch (item.status) {
    case 'pending':
      return t('upload.status.pending');
    case 'uploading':
      return t('upload.status.uploading', { progress: item.progress });
    case 'uploaded':
      return t('upload.status.uploaded');
    case 'processing':
      return t('upload.status.processing');
    case 'complete':
      return t('upload.status.complete');
    case 'duplicate':
      return t('upload.status.duplicate');
    case 'retrying':
      return t('upload.status.reconnecting', { count: item.retryCount, max: MAX_RETRIES });
    case 'error':
      if (item.isResumable) return t(MSG.connectionIssues);
      if (item.errorText) return t(item.errorText.key, item.errorText.values as Record<string, string | number> | undefined);
      return item.error ?? t('upload.status.failed');
  }
}

/**
 * The line above the list the guest can trust: "All 7 files safely received", or "5 of 7
 * received, 2 still uploading". Received means the server holds the whole file.
 */
export function summaryText(items: readonly UploadItem[]): string {
  const total = items.length;
  const received = items.filter((i) => RECEIVED.has(i.status)).length;
  const failed = items.filter((i) => i.status === 'error').length;
  const sending = total - received - failed;
  if (received === total) return t('upload.summary.all', { count: total });
  const parts = [t('upload.summary.received', { received, count: total })];
  if (sending) parts.push(t('upload.summary.sending', { count: sending }));
  if (failed) parts.push(t('upload.summary.failed', { count: failed }));
  return parts.join(t('upload.summary.separator'));
}

const RECEIVED = new Set(['uploaded', 'processing', 'complete', 'duplicate']);

import { MAX_RETRIES } from './constants';
import { MSG } from './messages';
import type { UploadItem } from './types';

/** SPEC §9: B, KB, MB, GB (base 1024). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v >= 100 ? 0 : 1)} ${units[i]}`;
}

/** SPEC §2: Video, Photo or File. */
export function fileLabel(type: string): 'Video' | 'Photo' | 'File' {
  if (type.startsWith('video/')) return 'Video';
  if (type.startsWith('image/')) return 'Photo';
  return 'File';
}

/** The line under each file in the upload box. */
export function statusText(item: UploadItem): string {
  switch (item.status) {
    case 'pending':
      return 'Waiting to upload';
    case 'uploading':
      return `Uploading... ${item.progress}%`;
    case 'uploaded':
      return 'Uploaded';
    case 'processing':
      return 'Processing...';
    case 'complete':
      return 'Complete';
    case 'duplicate':
      return 'Already uploaded - skipped';
    case 'retrying':
      return `Reconnecting... (${item.retryCount}/${MAX_RETRIES})`;
    case 'error':
      return item.isResumable ? MSG.connectionIssues : item.error ?? 'Upload failed';
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
  if (received === total) return total === 1 ? 'Your file is safely received' : `All ${total} files safely received`;
  const parts = [`${received} of ${total} received`];
  if (sending) parts.push(`${sending} still uploading`);
  if (failed) parts.push(`${failed} failed`);
  return parts.join(', ');
}

const RECEIVED = new Set(['uploaded', 'processing', 'complete', 'duplicate']);

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

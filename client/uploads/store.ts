import type { UploadItem, UploadStatus } from './types';

/** What is kept of one upload between page loads (everything but the bytes, which are kept apart). */
export interface StoredUpload {
  id: string;
  uploadId: string;
  sessionId: string;
  name: string;
  size: number;
  type: string;
  lastModified: number;
  status: UploadStatus;
  retryCount: number;
  uploadedBytes: number;
  progress: number;
  photoId: string | null;
  isDuplicate: boolean;
  duplicateType: string | null;
  error: string | null;
  isResumable: boolean;
  /** A photo or video taken in the page: when (sent as captured_at). */
  capturedAt?: string | null;
  /** Keeps the list in the order the files were added. */
  seq: number;
}

/**
 * Where the upload queue survives a reload, a discarded tab or a crash: IndexedDB in the browser
 * (idb-store.ts), a map in the tests. Writes on one store land in the order they were made.
 */
export interface UploadStore {
  /** Keeps a new upload with its file; rejects when the browser refuses (private mode, quota). */
  add(rec: StoredUpload, file: Blob): Promise<void>;
  /** Rewrites the record (the file stays). */
  put(rec: StoredUpload): Promise<void>;
  /** Forgets the bytes once the server holds them; the record stays to show the final state. */
  dropFile(id: string): Promise<void>;
  remove(ids: readonly string[]): Promise<void>;
  /** Every kept upload, oldest first; `file` is null once dropped (or when its write was refused). */
  load(): Promise<{ rec: StoredUpload; file: Blob | null }[]>;
}

export function toStored(item: UploadItem, seq: number): StoredUpload {
  const { file, ...rest } = item;
  return { ...rest, name: file.name, size: file.size, type: file.type, lastModified: file.lastModified, seq };
}

/**
 * The item a record becomes again. Once the bytes are dropped the file is only a name, a size and
 * a type to show; nothing reads its content, since the server already has it.
 */
export function fromStored(rec: StoredUpload, file: Blob | null): UploadItem {
  const { name, size, type, lastModified, seq: _seq, ...rest } = rec;
  const f = file ? new File([file], name, { type, lastModified }) : ({ name, size, type, lastModified } as File);
  return { ...rest, file: f };
}

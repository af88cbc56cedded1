import { WriteBehind, type WriteMany } from '../db/write-behind.js';

/**
 * How far each partial upload got, as this process knows it: kept in memory, answered from
 * memory, and written to SQLite after the chunk's answer (db/write-behind.ts). A chunk's answer
 * used to wait for that write, and under an upload rush the database's writes queue behind the
 * disk (up to seconds).
 *
 * What this process knows is authoritative: an upload's entry stays until the upload completes or
 * is dropped, so a read of an older row is always corrected by it. After a crash the row may be a
 * write behind the file; the partial file is then cut back to the row's offset (chunked-upload's
 * hashFor) and the phone, which asks for the offset before it resumes, sends those bytes again.
 */
export class UploadOffsets {
  private readonly known = new Map<string, number>();
  private readonly rows: WriteBehind<number>;

  constructor(write: WriteMany<number>) {
    this.rows = new WriteBehind(write, 'how far uploads got');
  }

  get(id: string): number | undefined {
    return this.known.get(id);
  }

  /** Known from now on; written to the database soon after. */
  set(id: string, receivedBytes: number): void {
    this.known.set(id, receivedBytes);
    this.rows.set(id, receivedBytes);
  }

  /** The upload completed or was dropped: its row says what counts now. */
  forget(id: string): void {
    this.known.delete(id);
    this.rows.drop(id);
  }

  /** Resolves once every offset set so far has been written, or its write failed (logged). */
  flush(): Promise<void> {
    return this.rows.flush();
  }
}

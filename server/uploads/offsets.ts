import { log } from '../log.js';

/** Writes many uploads' offsets at once (one statement). */
export type WriteOffsets = (offsets: [id: string, receivedBytes: number][]) => Promise<void>;

/** Offsets written per statement. */
const BATCH = 200;

/**
 * How far each partial upload got, as this process knows it: kept in memory, answered from
 * memory, and written to SQLite after the chunk's answer. A chunk's answer used to wait for that
 * write, and under an upload rush the database's writes queue behind the disk (up to seconds).
 *
 * What this process knows is authoritative: an upload's entry stays until the upload completes or
 * is dropped, so a read of an older row is always corrected by it. After a crash the row may be a
 * write behind the file; the partial file is then cut back to the row's offset (chunked-upload's
 * hashFor) and the phone, which asks for the offset before it resumes, sends those bytes again.
 */
export class UploadOffsets {
  private readonly known = new Map<string, number>();
  private readonly unwritten = new Set<string>();
  private writing: Promise<void> | undefined;

  constructor(private readonly write: WriteOffsets) {}

  get(id: string): number | undefined {
    return this.known.get(id);
  }

  /** Known from now on; written to the database soon after. */
  set(id: string, receivedBytes: number): void {
    this.known.set(id, receivedBytes);
    this.unwritten.add(id);
    this.writing ??= this.writeOut().finally(() => (this.writing = undefined));
  }

  /** The upload completed or was dropped: its row says what counts now. */
  forget(id: string): void {
    this.known.delete(id);
    this.unwritten.delete(id);
  }

  /** Resolves once every offset set so far has been written, or its write failed (logged). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async writeOut(): Promise<void> {
    while (this.unwritten.size) {
      const batch = [...this.unwritten].slice(0, BATCH).map((id): [string, number] => [id, this.known.get(id)!]);
      for (const [id] of batch) this.unwritten.delete(id);
      try {
        await this.write(batch);
      } catch (e) {
        // Still known here, so answers stay right; the row catches up with the next upload's write.
        for (const [id] of batch) if (this.known.has(id)) this.unwritten.add(id);
        log.warn('Recording how far uploads got failed', e);
        return;
      }
    }
  }
}

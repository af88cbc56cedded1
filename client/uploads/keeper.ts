import { fromStored, type StoredUpload, toStored, type UploadStore } from './store';
import type { UploadItem } from './types';

/**
 * Keeps the engine's queue in an UploadStore. Every failure is swallowed: storage only ever adds
 * safety, and without it uploads go on as they would (the guest is told once, by `onRefused`).
 */
export class QueueKeeper {
  private store: UploadStore | null = null;
  /** Until the store is attached (it opens asynchronously), or when there is none. */
  private attached = false;
  private warned = false;
  private seq = 0;
  private readonly seqOf = new Map<string, number>();
  /** Items whose file the store refused: nothing more of them is written. */
  private readonly refused = new Set<string>();

  constructor(private readonly onRefused: () => void) {}

  /** Attaches the store (null: the browser has none) and returns what it kept from earlier pages. */
  async attach(store: UploadStore | null): Promise<UploadItem[]> {
    this.store = store;
    this.attached = true;
    if (!store) return [];
    try {
      const kept = await store.load();
      const items: UploadItem[] = [];
      const orphans: string[] = [];
      for (const { rec, file } of kept) {
        this.seq = Math.max(this.seq, rec.seq + 1);
        // A file still to send whose bytes were never stored cannot come back.
        if (!file && needsBytes(rec)) {
          orphans.push(rec.id);
          continue;
        }
        this.seqOf.set(rec.id, rec.seq);
        const item = fromStored(rec, file);
        // Whatever was on its way when the page went away starts again, with fresh retries.
        items.push(SENDING.has(item.status) ? { ...item, status: 'pending', retryCount: 0, error: null } : item);
      }
      if (orphans.length) void store.remove(orphans).catch(() => undefined);
      return items;
    } catch {
      return [];
    }
  }

  /** A new file: kept with its bytes, or the guest hears once that a reload would lose it. */
  add(item: UploadItem): void {
    if (!this.attached) return;
    const seq = this.seq++;
    this.seqOf.set(item.id, seq);
    if (!this.store) return this.refuse(item.id);
    this.store.add(toStored(item, seq), item.file).catch(() => {
      this.refuse(item.id);
      void this.store?.remove([item.id]).catch(() => undefined);
    });
  }

  /** Items added before the store was attached are kept now. */
  adopt(items: readonly UploadItem[]): void {
    for (const item of items) if (!this.seqOf.has(item.id) && needsBytes(item)) this.add(item);
  }

  save(item: UploadItem): void {
    const seq = this.seqOf.get(item.id);
    if (!this.store || seq === undefined || this.refused.has(item.id)) return;
    void this.store.put(toStored(item, seq)).catch(() => undefined);
    // Once the server holds the whole file, the bytes are no longer needed here.
    if (!needsBytes(item)) void this.store.dropFile(item.id).catch(() => undefined);
  }

  remove(ids: readonly string[]): void {
    for (const id of ids) this.seqOf.delete(id);
    if (this.store && ids.length) void this.store.remove(ids).catch(() => undefined);
  }

  private refuse(id: string): void {
    this.refused.add(id);
    if (this.warned) return;
    this.warned = true;
    this.onRefused();
  }
}

/** Statuses in which the server does not have the whole file yet. */
export const SENDING: ReadonlySet<string> = new Set(['pending', 'uploading', 'retrying']);

/** Statuses in which the file may still have to be (re)sent. */
function needsBytes(i: { status: string }): boolean {
  return SENDING.has(i.status) || i.status === 'error';
}

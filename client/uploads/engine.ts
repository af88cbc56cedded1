import { CHUNK_SIZE, FIRST_POLL_MS, MAX_CONCURRENT, MAX_POLLS, MAX_RETRIES, POLL_INTERVAL_MS, retryDelay, SUCCESS_BANNER_MS } from './constants';
import { isRetryable, MSG, UploadError } from './messages';
import { type Created, UploadRequests } from './requests';
import type { BoxState, Notice, Timers, Transport, UploadItem } from './types';

export interface EngineDeps {
  transport: Transport;
  timers?: Timers;
  notify?: (n: Notice) => void;
  /** Random ids (session, item, upload_id); crypto-based by default. */
  randomId?: () => string;
  sessionId?: string;
}

/** Works where crypto.randomUUID does not (plain http on a LAN is not a secure context). */
export function randomHex(bytes = 16): string {
  const a = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(a);
  return Array.from(a, (b) => b.toString(16).padStart(2, '0')).join('');
}

const ACTIVE = new Set(['pending', 'uploading', 'retrying', 'uploaded', 'processing']);
const KEPT_BY_CLEAR = new Set(['uploading', 'pending', 'retrying']);

/**
 * The guest upload queue (SPEC §4, §7-§9): at most 3 files in flight, single or chunked requests,
 * retries with backoff, resume from the server's offset, status polling, and the upload box state.
 * No React here: views subscribe and read `items` and `box`.
 */
export class UploadEngine {
  readonly sessionId: string;
  items: readonly UploadItem[] = [];
  box: BoxState = 'idle';

  private readonly timers: Timers;
  private readonly notify: (n: Notice) => void;
  private readonly randomId: () => string;
  private readonly api: UploadRequests;
  private readonly listeners = new Set<() => void>();
  private readonly running = new Set<string>();
  /** Items whose next attempt must first ask the server how much it holds. */
  private readonly resumeFromServer = new Set<string>();
  private successTimer: unknown = null;

  constructor(deps: EngineDeps) {
    this.timers = deps.timers ?? { setTimeout: (f, ms) => setTimeout(f, ms), clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };
    this.notify = deps.notify ?? (() => {});
    this.randomId = deps.randomId ?? (() => randomHex());
    this.sessionId = deps.sessionId ?? this.randomId();
    this.api = new UploadRequests(deps.transport, this.timers, this.sessionId);
  }

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  get(id: string): UploadItem | undefined {
    return this.items.find((i) => i.id === id);
  }

  /** Adds files and starts them; refused (false) unless the box is idle (SPEC §4). */
  addFiles(files: readonly File[]): boolean {
    if (this.box !== 'idle' || files.length === 0) return false;
    const added: UploadItem[] = files.map((file) => ({
      id: this.randomId(),
      file,
      uploadId: this.randomId(),
      progress: 0,
      status: 'pending',
      retryCount: 0,
      uploadedBytes: 0,
      photoId: null,
      isDuplicate: false,
      duplicateType: null,
      error: null,
      isResumable: false,
    }));
    this.items = [...this.items, ...added];
    this.setBox('uploading');
    this.emit();
    this.pump();
    return true;
  }

  /** SPEC §4: an errored item goes back to pending with a zero retry count and restarts. */
  retry(id: string): void {
    const item = this.get(id);
    if (!item || item.status !== 'error') return;
    if (item.uploadedBytes > 0 || item.isResumable) this.resumeFromServer.add(id);
    this.patch(id, { status: 'pending', retryCount: 0, error: null });
    if (this.box !== 'uploading') this.setBox('uploading');
    this.emit();
    this.pump();
  }

  /** SPEC §4: removes every item except those uploading, pending or retrying. */
  clearCompleted(): void {
    this.items = this.items.filter((i) => KEPT_BY_CLEAR.has(i.status));
    this.settleBox();
    this.emit();
  }

  private emit(): void {
    for (const fn of this.listeners) fn();
  }

  private patch(id: string, p: Partial<UploadItem>): void {
    this.items = this.items.map((i) => (i.id === id ? { ...i, ...p } : i));
  }

  private update(id: string, p: Partial<UploadItem>): void {
    this.patch(id, p);
    this.settleBox();
    this.emit();
  }

  private setBox(state: BoxState): void {
    if (this.successTimer !== null) {
      this.timers.clearTimeout(this.successTimer);
      this.successTimer = null;
    }
    this.box = state;
    if (state === 'success') {
      this.successTimer = this.timers.setTimeout(() => {
        this.successTimer = null;
        this.box = 'idle';
        this.emit();
      }, SUCCESS_BANNER_MS);
    }
  }

  /**
   * SPEC §4: success once nothing is in flight and something succeeded. When everything failed
   * there is nothing to celebrate, and the box goes back to idle so new files can be dropped.
   */
  private settleBox(): void {
    if (this.box !== 'uploading' || this.items.some((i) => ACTIVE.has(i.status))) return;
    const succeeded = this.items.some((i) => i.status === 'complete' || i.status === 'duplicate');
    this.setBox(succeeded ? 'success' : 'idle');
  }

  private pump(): void {
    for (const item of this.items) {
      if (this.running.size >= MAX_CONCURRENT) return;
      if (item.status === 'pending' && !this.running.has(item.id)) {
        this.running.add(item.id);
        void this.run(item.id).finally(() => {
          this.running.delete(item.id);
          this.pump();
        });
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.timers.setTimeout(resolve, ms));
  }

  private async run(id: string): Promise<void> {
    for (;;) {
      const item = this.get(id);
      if (!item) return;
      this.update(id, { status: 'uploading', error: null });
      try {
        const created = await this.transfer(item);
        this.finished(id, created);
        return;
      } catch (err) {
        const e = err instanceof UploadError ? err : new UploadError(err instanceof Error ? err.message : String(err));
        const now = this.get(id);
        if (!now) return;
        if (e.uploadsOff) {
          this.update(id, { status: 'error', error: e.message });
          this.notify({ title: MSG.uploadsOffTitle, description: MSG.uploadsOff, variant: 'destructive' });
          return;
        }
        if (!isRetryable(e.message)) {
          this.update(id, { status: 'error', error: e.message, isResumable: false });
          this.notify({ title: MSG.failedTitle, description: e.message, variant: 'destructive' });
          return;
        }
        if (now.retryCount >= MAX_RETRIES) {
          // Out of automatic retries: the guest resumes by hand; a toast would only repeat the row.
          this.update(id, { status: 'error', error: MSG.connectionIssues, isResumable: true });
          return;
        }
        this.resumeFromServer.add(id);
        this.update(id, { status: 'retrying', retryCount: now.retryCount + 1, error: e.message });
        await this.sleep(retryDelay(now.retryCount));
      }
    }
  }

  /** Sends the file: single request, or chunks (large files, and any resumed transfer). */
  private async transfer(item: UploadItem): Promise<Created> {
    const progress = (bytes: number) => {
      const size = item.file.size || 1;
      this.update(item.id, { uploadedBytes: bytes, progress: Math.min(99, Math.floor((bytes / size) * 100)) });
    };
    const resume = this.resumeFromServer.has(item.id);
    const chunked = item.file.size > CHUNK_SIZE || (resume && item.isResumable);
    if (!chunked) return this.api.single(item.file, progress);
    let from = 0;
    if (resume) {
      const o = await this.api.offset(item.file, item.uploadId);
      if (o.created) return o.created;
      from = o.receivedBytes;
      progress(from);
    }
    this.resumeFromServer.delete(item.id);
    return this.api.chunks(item.file, item.uploadId, from, progress);
  }

  private finished(id: string, created: Created): void {
    this.resumeFromServer.delete(id);
    const name = this.get(id)?.file.name ?? 'The file';
    const done = { progress: 100, uploadedBytes: this.get(id)?.file.size ?? 0, photoId: created.photoId, isResumable: false, error: null };
    if (created.duplicate) {
      this.update(id, { ...done, status: 'duplicate', isDuplicate: true, duplicateType: created.duplicateType });
      this.notify({ title: MSG.duplicateTitle, description: `${name} was already uploaded and was skipped` });
      return;
    }
    this.update(id, { ...done, status: 'uploaded' });
    this.notify({ title: MSG.successTitle, description: `${name} has been uploaded`, variant: 'success' });
    if (created.photoId) this.poll(id, created.photoId);
    else this.update(id, { status: 'complete' });
  }

  /** SPEC §4/§9: first poll after 1 s, then every 1.5 s, at most 120 tries, then complete. */
  private poll(id: string, photoId: string): void {
    let tries = 0;
    const tick = async () => {
      tries++;
      const r = await this.api.status(photoId);
      if (!this.get(id)) return;
      if (r?.status === 'duplicate') {
        this.update(id, { status: 'duplicate', isDuplicate: true, duplicateType: r.duplicateType });
        return;
      }
      // A processing failure still leaves the file stored for the hosts: for the guest it is done.
      if (r?.status === 'complete' || r?.status === 'error' || tries >= MAX_POLLS) {
        this.update(id, { status: 'complete' });
        return;
      }
      if (r?.status === 'processing' && this.get(id)?.status === 'uploaded') this.update(id, { status: 'processing' });
      this.timers.setTimeout(() => void tick(), POLL_INTERVAL_MS);
    };
    this.timers.setTimeout(() => void tick(), FIRST_POLL_MS);
  }
}

import { CHUNK_SIZE, FIRST_POLL_MS, MAX_CONCURRENT, MAX_POLLS, MAX_RETRIES, POLL_INTERVAL_MS, retryDelay } from './constants';
import { randomHex } from './ids';
import { QueueKeeper, SENDING } from './keeper';
import { t } from '../i18n';
import { isRetryable, MSG, NOT_KEPT, UploadError } from './messages';
import { ChallengeGone, type Created, UploadRequests } from './requests';
import type { UploadStore } from './store';
import { Waits } from './waits';
import { UploadBoxState } from './box-state';
import type { BoxState, Notice, Timers, Transport, UploadItem } from './types';

export interface EngineDeps {
  transport: Transport;
  timers?: Timers;
  notify?: (n: Notice) => void;
  /** Random ids (session, item, upload_id); crypto-based by default. */
  randomId?: () => string;
  sessionId?: string;
  /** The name the guest gave (read as each request goes out); empty or absent: anonymous. */
  uploaderName?: () => string;
  /** The photo challenge the guest has picked (read as files are added, and kept with them); null: none. */
  challengeId?: () => string | null;
}

export { randomHex };

/** SPEC §4: "Clear Completed" keeps the files still on their way (the statuses of SENDING). */
const KEPT_BY_CLEAR = SENDING;

/**
 * The guest upload queue (SPEC §4, §7-§9): at most 3 files in flight, single or chunked requests,
 * retries with backoff, resume from the server's offset, status polling, and the upload box state.
 * No React here: views subscribe and read `items` and `box`.
 */
export class UploadEngine {
  readonly sessionId: string;
  items: readonly UploadItem[] = [];

  get box(): BoxState {
    return this.boxState.state;
  }

  private readonly timers: Timers;
  private readonly notify: (n: Notice) => void;
  private readonly randomId: () => string;
  private readonly transport: Transport;
  private readonly uploaderName: () => string;
  private readonly challengeId: () => string | null;
  private readonly apis = new Map<string, UploadRequests>();
  private readonly keeper: QueueKeeper;
  /** Backoff waits, which wake() ends at once; a wait the server asked for (Retry-After) is not cut short. */
  private readonly waits: Waits;
  private restored = false;
  private readonly listeners = new Set<() => void>();
  private readonly running = new Set<string>();
  /** Items whose next attempt must first ask the server how much it holds. */
  private readonly resumeFromServer = new Set<string>();
  private readonly boxState: UploadBoxState;

  constructor(deps: EngineDeps) {
    this.timers = deps.timers ?? { setTimeout: (f, ms) => setTimeout(f, ms), clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>) };
    this.notify = deps.notify ?? (() => {});
    this.randomId = deps.randomId ?? (() => randomHex());
    this.sessionId = deps.sessionId ?? this.randomId();
    this.transport = deps.transport;
    this.uploaderName = deps.uploaderName ?? (() => '');
    this.challengeId = deps.challengeId ?? (() => null);
    this.waits = new Waits(this.timers);
    this.boxState = new UploadBoxState(this.timers, () => this.emit());
    this.keeper = new QueueKeeper(() => this.notify({ ...NOT_KEPT, variant: 'default' }));
  }

  /** The requests of one upload session (files restored from an earlier page keep theirs). */
  private api(sessionId: string): UploadRequests {
    let api = this.apis.get(sessionId);
    if (!api) this.apis.set(sessionId, (api = new UploadRequests(this.transport, this.timers, sessionId, this.uploaderName)));
    return api;
  }

  /** True while some file is not yet wholly on the server (what the keep-alive guards). */
  get sending(): boolean {
    return this.items.some((i) => SENDING.has(i.status));
  }

  /**
   * Attaches the store and brings back what it kept: unfinished files carry on from the server's
   * offset, files the server already has resume their status polling, finished ones show their state.
   */
  async restore(store: UploadStore | null): Promise<void> {
    if (this.restored) return;
    this.restored = true;
    const kept = await this.keeper.attach(store);
    this.keeper.adopt(this.items);
    const known = new Set(this.items.map((i) => i.id));
    const back = kept.filter((i) => !known.has(i.id));
    if (!back.length) return;
    // Chunked files ask the server how much it holds; a small file is simply sent again.
    for (const i of back) if (i.status === 'pending' && (i.file.size > CHUNK_SIZE || i.isResumable)) this.resumeFromServer.add(i.id);
    this.items = [...back, ...this.items];
    if (UploadBoxState.active(back) && this.box !== 'uploading') this.boxState.set('uploading');
    for (const i of back) if ((i.status === 'uploaded' || i.status === 'processing') && i.photoId) this.poll(i.id, i.photoId);
    this.emit();
    this.pump();
  }

  /**
   * Retries at once instead of waiting out the backoff, and resumes files that ran out of
   * automatic retries: called when the signal returns or the page is shown again.
   */
  wake(): void {
    for (const i of this.items) if (i.status === 'error' && i.isResumable) this.retry(i.id);
    this.waits.wakeAll();
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
    this.add(files, null);
    return true;
  }

  /**
   * A photo or video just taken in the page (`capturedAt`: when): joins the queue at once, even
   * while other files are on their way, so the camera never waits for the uploads.
   */
  addCaptured(file: File, capturedAt: string): void {
    this.add([file], capturedAt);
  }

  private add(files: readonly File[], capturedAt: string | null): void {
    const challengeId = this.challengeId();
    const added: UploadItem[] = files.map((file) => ({
      id: this.randomId(),
      file,
      uploadId: this.randomId(),
      sessionId: this.sessionId,
      progress: 0,
      status: 'pending',
      retryCount: 0,
      uploadedBytes: 0,
      photoId: null,
      isDuplicate: false,
      duplicateType: null,
      error: null,
      isResumable: false,
      challengeId,
      ...(capturedAt ? { capturedAt } : {}),
    }));
    this.items = [...this.items, ...added];
    for (const item of added) this.keeper.add(item);
    if (this.box !== 'uploading') this.boxState.set('uploading');
    this.emit();
    this.pump();
  }

  /** SPEC §4: an errored item goes back to pending with a zero retry count and restarts. */
  retry(id: string): void {
    const item = this.get(id);
    if (!item || item.status !== 'error') return;
    if (item.uploadedBytes > 0 || item.isResumable) this.resumeFromServer.add(id);
    this.patch(id, { status: 'pending', retryCount: 0, error: null });
    if (this.box !== 'uploading') this.boxState.set('uploading');
    this.emit();
    this.pump();
  }

  /** SPEC §4: removes every item except those uploading, pending or retrying. */
  clearCompleted(): void {
    this.keeper.remove(this.items.filter((i) => !KEPT_BY_CLEAR.has(i.status)).map((i) => i.id));
    this.items = this.items.filter((i) => KEPT_BY_CLEAR.has(i.status));
    this.boxState.settle(this.items);
    this.emit();
  }

  private emit(): void {
    for (const fn of this.listeners) fn();
  }

  private patch(id: string, p: Partial<UploadItem>): void {
    this.items = this.items.map((i) => (i.id === id ? { ...i, ...p } : i));
    // Progress alone is not kept: after a reload the server's offset says where to go on.
    const item = Object.keys(p).some((k) => k !== 'progress' && k !== 'uploadedBytes') ? this.get(id) : undefined;
    if (item) this.keeper.save(item);
  }

  private update(id: string, p: Partial<UploadItem>): void {
    this.patch(id, p);
    this.boxState.settle(this.items);
    this.emit();
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
        if (err instanceof ChallengeGone && this.get(id)?.challengeId) {
          // The couple removed the challenge while the file was on its way: it goes on without it.
          this.patch(id, { challengeId: null });
          if (item.file.size > CHUNK_SIZE) this.resumeFromServer.add(id);
          continue;
        }
        const e = err instanceof UploadError ? err : new UploadError({ key: 'upload.error.other', values: { message: err instanceof Error ? err.message : String(err) } });
        const now = this.get(id);
        if (!now) return;
        if (e.uploadsOff) {
          this.update(id, { status: 'error', error: e.message, errorText: e.text });
          this.notify({ title: t(MSG.uploadsOffTitle), description: t(MSG.uploadsOff), variant: 'destructive' });
          return;
        }
        if (!isRetryable(e.english) && e.retryAfterMs === undefined) {
          this.update(id, { status: 'error', error: e.message, errorText: e.text, isResumable: false });
          this.notify({ title: t(MSG.failedTitle), description: e.message, variant: 'destructive' });
          return;
        }
        if (now.retryCount >= MAX_RETRIES) {
          // Out of automatic retries: the guest resumes by hand; a toast would only repeat the row.
          this.update(id, { status: 'error', error: t(MSG.connectionIssues), errorText: { key: MSG.connectionIssues }, isResumable: true });
          return;
        }
        this.resumeFromServer.add(id);
        this.update(id, { status: 'retrying', retryCount: now.retryCount + 1, error: e.message, errorText: e.text });
        await (e.retryAfterMs !== undefined ? this.waits.sleep(e.retryAfterMs) : this.waits.sleep(retryDelay(now.retryCount), id));
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
    const api = this.api(item.sessionId);
    if (!chunked) return api.single(item.file, progress, item.challengeId, item.capturedAt);
    let from = 0;
    if (resume) {
      const o = await api.offset(item.file, item.uploadId, item.challengeId, item.capturedAt);
      if (o.created) return o.created;
      from = o.receivedBytes;
      progress(from);
    }
    this.resumeFromServer.delete(item.id);
    return api.chunks(item.file, item.uploadId, from, progress, item.challengeId, item.capturedAt);
  }

  private finished(id: string, created: Created): void {
    this.resumeFromServer.delete(id);
    const name = this.get(id)?.file.name ?? t('upload.toast.the_file');
    const done = { progress: 100, uploadedBytes: this.get(id)?.file.size ?? 0, photoId: created.photoId, isResumable: false, error: null };
    if (created.duplicate) {
      this.update(id, { ...done, status: 'duplicate', isDuplicate: true, duplicateType: created.duplicateType });
      this.notify({ title: t(MSG.duplicateTitle), description: t('upload.toast.duplicate_text', { name }) });
      return;
    }
    this.update(id, { ...done, status: 'uploaded' });
    this.notify({ title: t(MSG.successTitle), description: t('upload.toast.success_text', { name }), variant: 'success' });
    if (created.photoId) this.poll(id, created.photoId);
    else this.update(id, { status: 'complete' });
  }

  /** SPEC §4/§9: first poll after 1 s, then every 1.5 s, at most 120 tries, then complete. */
  private poll(id: string, photoId: string): void {
    let tries = 0;
    const tick = async () => {
      tries++;
      const r = await this.api(this.get(id)?.sessionId ?? this.sessionId).status(photoId);
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

import path from 'node:path';
import { log } from '../log.js';
import { Bucket, BucketError, classify, fileSums, type MultipartState } from './bucket.js';
import { contentTypeOf, inside, statFile, walk } from './local-files.js';
import { OffsiteRepo, ownerPaths, type LocalFile, type OffsiteRow } from './offsite.repo.js';
import { backoffMs, type CopierOptions, type CopyError } from './copier-options.js';

export { backoffMs, type CopierOptions, type CopyError };

/**
 * Copies what belongs in the bucket, one row of `offsite_objects` at a time: the queue lives in
 * the database, so a restart or a kill -9 carries on where it stood (a multipart copy from its
 * last confirmed part), and a bucket that is away is waited for with a back-off capped at a minute.
 */
export class Copier {
  readonly repo: OffsiteRepo;
  private bucket: Bucket | null = null;
  private running = false;
  private loop: Promise<void> | null = null;
  private readonly aborts = new Set<AbortController>();
  /** Failures in a row; the bucket is not asked again before pausedUntil. */
  failures = 0;
  pausedUntil = 0;
  failingSince: number | null = null;
  lastError: CopyError | null = null;
  /** Keys the bucket holds, for building URLs without a query per item. */
  readonly copied = new Set<string>();
  /** Called after each pass (status, database copies, eviction hang on it). */
  onPass: (() => Promise<void>) | null = null;
  onCopied: ((row: OffsiteRow) => void) | null = null;
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly now: () => number;

  constructor(private readonly o: CopierOptions) {
    this.repo = new OffsiteRepo(o.db);
    this.concurrency = o.concurrency ?? 2;
    this.pollMs = o.pollMs ?? 2000;
    this.now = o.now ?? Date.now;
  }

  get active(): Bucket | null {
    return this.bucket;
  }

  /** Starts (or restarts with another bucket); everything is looked at again. */
  async start(bucket: Bucket): Promise<void> {
    await this.stop();
    this.bucket = bucket;
    this.failures = 0;
    this.pausedUntil = 0;
    this.failingSince = null;
    this.copied.clear();
    for (const rel of await this.repo.copiedRels()) this.copied.add(rel);
    await this.repo.markAllDirty();
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    for (const a of this.aborts) a.abort();
    this.wake();
    await this.loop?.catch(() => {});
    this.loop = null;
    this.bucket?.destroy();
    this.bucket = null;
  }

  wake(): void {
    for (const w of [...this.sleepers]) w();
  }

  private readonly sleepers = new Set<() => void>();

  /** Sleeps `ms`, or until wake() or stop(). */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        this.sleepers.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }

  /**
   * Two kinds of loop side by side: one looks at what changed (and runs the hooks: database
   * copies, status); `concurrency` workers each take the next due row as soon as they are free, so
   * a long video never holds the others back and a new photo is queued while it copies.
   */
  private async run(): Promise<void> {
    await Promise.all([this.watch(), ...Array.from({ length: this.concurrency }, () => this.work())]);
  }

  private async watch(): Promise<void> {
    while (this.running) {
      let found = false;
      try {
        found = await this.reconcile();
        if (found) this.wake();
        await this.onPass?.();
      } catch (err) {
        log.warn('Off-site copy: a pass failed', err);
      }
      if (this.running && !found) await this.sleep(this.pollMs);
    }
  }

  private queue: OffsiteRow[] = [];
  private refilling: Promise<void> | null = null;
  private readonly inFlight = new Set<string>();

  /** The next due row no worker holds; undefined when none is due. */
  private async take(): Promise<OffsiteRow | undefined> {
    if (!this.queue.length) {
      this.refilling ??= this.repo
        .due(this.now(), this.concurrency * 4 + this.inFlight.size)
        .then((rows) => {
          this.queue = rows.filter((r) => !this.inFlight.has(r.rel));
        })
        .finally(() => {
          this.refilling = null;
        });
      await this.refilling;
    }
    const row = this.queue.shift();
    if (row) this.inFlight.add(row.rel);
    return row;
  }

  private async work(): Promise<void> {
    while (this.running) {
      if (this.now() < this.pausedUntil) {
        await this.sleep(Math.max(50, Math.min(this.pollMs, this.pausedUntil - this.now())));
        continue;
      }
      let row: OffsiteRow | undefined;
      try {
        row = await this.take();
      } catch (err) {
        log.warn('Off-site copy: could not read its queue', err);
      }
      if (!row) {
        await this.sleep(this.pollMs);
        continue;
      }
      try {
        // false: the bucket itself failed; the rest waits for the back-off instead of failing one by one.
        if (!(await this.one(row))) this.queue = [];
      } finally {
        this.inFlight.delete(row.rel);
      }
    }
  }

  /** Looks at what changed and queues what to copy or delete. true when it found something. */
  async reconcile(limit = 200): Promise<boolean> {
    const dirty = await this.repo.dirty(limit);
    for (const d of dirty) {
      if (!this.running) return true;
      await this.reconcileOwner(d.owner);
      await this.repo.clean(d.owner, d.at);
    }
    return dirty.length > 0;
  }

  /** The files an owner has on disk now, against the rows: new or changed ones pending, gone ones deleting. */
  async reconcileOwner(owner: string): Promise<void> {
    const root = this.o.paths.root;
    const rows = await this.repo.ofOwner(owner);
    const byRel = new Map(rows.map((r) => [r.rel, r]));
    const named = await ownerPaths(this.o.db, owner);
    const rels = new Set<string>(named?.paths ?? []);
    if (owner.startsWith('photo:') && named) {
      const id = owner.slice('photo:'.length);
      const dir = path.join(this.o.paths.derived, id);
      if (path.dirname(dir) === path.resolve(this.o.paths.derived)) {
        const found: string[] = [];
        await walk(root, dir, found);
        for (const f of found) rels.add(f);
      }
    } else if (owner === 'cover') {
      const found: string[] = [];
      await walk(root, path.join(this.o.paths.derived, 'cover'), found);
      for (const f of found) rels.add(f);
    }
    const upserts: LocalFile[] = [];
    const present = new Set<string>();
    for (const rel of rels) {
      const abs = inside(root, rel);
      if (!abs) continue;
      const st = await statFile(abs);
      const row = byRel.get(rel);
      if (!st) {
        // An original the bucket holds and the disk gave up on purpose stays.
        if (row && row.evicted === 1 && row.state === 'copied') present.add(rel);
        continue;
      }
      present.add(rel);
      if (row && row.state !== 'deleting' && row.size === st.size && row.mtime_ms === Math.round(st.mtimeMs)) continue;
      upserts.push({ rel, size: st.size, mtimeMs: st.mtimeMs });
    }
    const toDelete = rows.filter((r) => !present.has(r.rel) && r.state !== 'deleting').map((r) => r.rel);
    await this.repo.apply(owner, upserts, toDelete, this.now());
    for (const rel of [...upserts.map((u) => u.rel), ...toDelete]) this.copied.delete(rel);
  }

  /** false when the bucket itself failed (the pass stops and backs off). */
  private async one(row: OffsiteRow): Promise<boolean> {
    const bucket = this.bucket;
    if (!bucket) return false;
    const ac = new AbortController();
    this.aborts.add(ac);
    try {
      if (row.state === 'deleting') {
        if (row.upload_id) await bucket.abortMultipart(row.rel, row.upload_id);
        await bucket.delete(row.rel);
        await this.repo.removeDeleted(row.rel);
        this.copied.delete(row.rel);
      } else {
        await this.copy(bucket, row, ac.signal);
      }
      this.succeeded();
      return true;
    } catch (err) {
      if (!this.running || ac.signal.aborted) return false;
      const e = classify(err);
      if (e.problem === 'checksum_mismatch' || e.problem === 'unknown') {
        // This file, not the bucket: tried again later on its own.
        const tries = row.tries + 1;
        await this.repo.update(row.rel, { tries, next_at: this.now() + backoffMs(tries, this.o.maxBackoffMs), error: `${e.problem}: ${e.message}`.slice(0, 500) });
        this.failed(e);
        return true;
      }
      await this.repo.update(row.rel, { error: `${e.problem}: ${e.message}`.slice(0, 500) });
      this.failed(e);
      this.pausedUntil = this.now() + backoffMs(this.failures, this.o.maxBackoffMs);
      return false;
    } finally {
      this.aborts.delete(ac);
    }
  }

  private async copy(bucket: Bucket, row: OffsiteRow, signal: AbortSignal): Promise<void> {
    const abs = inside(this.o.paths.root, row.rel);
    const st = abs ? await statFile(abs) : null;
    if (!abs || !st) {
      // Gone since it was queued: its owner is looked at again (which deletes or keeps it).
      await this.repo.update(row.rel, { next_at: this.now() + 1000 });
      await this.o.db.insertInto('offsite_dirty').values({ owner: row.owner, at: this.now() }).onConflict((oc) => oc.column('owner').doUpdateSet({ at: this.now() })).execute();
      return;
    }
    const expect = { size: st.size, mtime_ms: Math.round(st.mtimeMs) };
    if (expect.size !== row.size || expect.mtime_ms !== row.mtime_ms) await this.repo.update(row.rel, { ...expect, upload_id: null, parts: null });
    const sums = await fileSums(abs);
    let resume: MultipartState | null = null;
    if (row.upload_id && row.sha256 === sums.sha256 && expect.size === row.size && expect.mtime_ms === row.mtime_ms) {
      resume = { uploadId: row.upload_id, parts: row.parts ? JSON.parse(row.parts) : [] };
    } else if (row.upload_id) {
      await bucket.abortMultipart(row.rel, row.upload_id);
      await this.repo.update(row.rel, { upload_id: null, parts: null });
    }
    if (row.sha256 !== sums.sha256) await this.repo.update(row.rel, { sha256: sums.sha256 });
    const put = (from: MultipartState | null) =>
      bucket.putFile(row.rel, abs, {
        sums,
        resume: from,
        signal,
        contentType: contentTypeOf(row.rel),
        onProgress: async (s) => {
          await this.repo.update(row.rel, { upload_id: s.uploadId, parts: JSON.stringify(s.parts) });
        },
      });
    try {
      await put(resume);
    } catch (err) {
      // The bucket forgot an unfinished multipart copy (expired, aborted): start it again.
      const e = err as { detail?: string };
      if (!resume || !(err instanceof BucketError) || !/NoSuchUpload/.test(e.detail ?? '')) throw err;
      await this.repo.update(row.rel, { upload_id: null, parts: null });
      await put(null);
    }
    if (await this.repo.markCopied(row.rel, expect, sums.sha256, new Date(this.now()).toISOString())) {
      this.copied.add(row.rel);
      this.onCopied?.({ ...row, ...expect, sha256: sums.sha256, state: 'copied' });
    }
  }

  private succeeded(): void {
    this.lastError = null;
    this.failures = 0;
    this.failingSince = null;
    this.pausedUntil = 0;
  }

  private failed(e: BucketError): void {
    this.failures++;
    this.failingSince ??= this.now();
    this.lastError = { code: e.problem, message: e.message, at: new Date(this.now()).toISOString() };
    if (this.failures === 1 || this.failures % 20 === 0) log.warn(`Off-site copy failed (${e.problem}): ${e.message}`);
  }

  /** Failing: three tries in a row went wrong (the status says so in words). */
  get failing(): boolean {
    return this.failures >= 3;
  }
}


import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Originals, OriginalsScope } from '../context.js';
import { AppError } from '../errors.js';
import { log } from '../log.js';
import { BucketError, classify, type Bucket } from './bucket.js';
import { inside } from './local-files.js';
import { OffsiteRepo } from './offsite.repo.js';
import { HOLD_MS, SHORT_FREE, ROOMY_FREE, NEAR_LIMIT, ROOMY_LIMIT, originalAway, sha256Of, sameFile, type LocalCacheDeps, type EvictResult, type Candidate } from './eviction-rules.js';

/**
 * The local disk as a cache of the couple's bucket (S3_KEEP_LOCAL=derivatives). An original whose
 * copy the bucket confirmed (its row copied, the bytes on disk still those, the object there with
 * that size and SHA-256) may leave the disk when room runs short, oldest first; its row says
 * `evicted`. Whatever reads an original asks `ensure` first, which fetches it back (SHA-256
 * checked) when needed; asks for the same file at once share one download. The file then stays
 * until the next eviction. The row is marked before the file goes, so the copier never mistakes
 * an evicted original for a deleted one.
 */
export class LocalCache implements Originals {
  private readonly repo: OffsiteRepo;
  private readonly fetching = new Map<string, Promise<string>>();
  private readonly held = new Map<string, number>(); // rel -> when it was last asked for
  private running: Promise<EvictResult> | null = null;
  private readonly now: () => number;
  private readonly holdMs: number;
  private readonly fetchDir: string;
  private readonly evictDir: string;

  constructor(private readonly d: LocalCacheDeps) {
    this.repo = new OffsiteRepo(d.db);
    this.now = d.now ?? Date.now;
    this.holdMs = d.holdMs ?? HOLD_MS;
    this.fetchDir = path.join(d.paths.root, 'offsite', 'fetching');
    this.evictDir = path.join(d.paths.root, 'offsite', 'evicting');
    // What a crash left half-way: a download not yet in place, an original already recorded as evicted.
    for (const dir of [this.fetchDir, this.evictDir]) fs.rmSync(dir, { recursive: true, force: true });
  }

  /** At start: an original recorded as evicted whose file is there after all (a crash after a fetch) counts as local again. */
  async start(): Promise<void> {
    const rows = await this.d.db.selectFrom('offsite_objects').select(['rel', 'size']).where('evicted', '=', 1).execute();
    for (const r of rows) {
      const abs = inside(this.d.paths.root, r.rel);
      const st = abs ? await fs.promises.stat(abs).catch(() => null) : null;
      if (st?.isFile() && st.size === r.size) await this.repo.update(r.rel, { evicted: 0, mtime_ms: Math.round(st.mtimeMs) });
    }
  }

  private hold(rel: string): void {
    this.held.set(rel, this.now());
    if (this.held.size > 10_000) {
      const old = this.now() - this.holdMs;
      for (const [k, at] of this.held) if (at < old) this.held.delete(k);
    }
  }

  private isHeld(rel: string): boolean {
    const at = this.held.get(rel);
    return this.fetching.has(rel) || (at !== undefined && this.now() - at < this.holdMs);
  }

  async ensure(photo: { id: string; stored_path: string }): Promise<string | null> {
    const rel = photo.stored_path;
    const abs = inside(this.d.paths.root, rel);
    if (!abs) return null;
    this.hold(rel);
    const pending = this.fetching.get(rel);
    if (pending) return pending;
    if (await fs.promises.stat(abs).then((s) => s.isFile(), () => false)) return abs;
    const row = await this.repo.get(rel);
    // Not evicted: simply missing (the reader says so as before).
    if (!row || row.evicted !== 1 || row.state !== 'copied') return abs;
    const again = this.fetching.get(rel);
    if (again) return again;
    const p = this.fetch(rel, abs, row.sha256, row.mtime_ms).finally(() => {
      this.fetching.delete(rel);
      this.hold(rel);
    });
    this.fetching.set(rel, p);
    return p;
  }

  private async fetch(rel: string, abs: string, sha256: string | null, mtimeMs: number): Promise<string> {
    const bucket = this.d.bucket();
    if (!bucket) {
      log.warn(`Off-site copy: ${rel} is kept only in the bucket, and no bucket is set up`);
      throw originalAway();
    }
    const started = this.now();
    fs.mkdirSync(this.fetchDir, { recursive: true });
    const tmp = path.join(this.fetchDir, crypto.randomBytes(8).toString('hex'));
    try {
      const got = await bucket.download(rel, tmp, { sha256 });
      // The time the copy recorded: the copier sees the same file it copied and copies nothing again.
      await fs.promises.utimes(tmp, new Date(), new Date(mtimeMs));
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      await fs.promises.rename(tmp, abs);
      const st = await fs.promises.stat(abs);
      await this.d.db
        .updateTable('offsite_objects')
        .set({ evicted: 0, mtime_ms: Math.round(st.mtimeMs) })
        .where('rel', '=', rel)
        .where('evicted', '=', 1)
        .execute();
      log.info(`Off-site copy: fetched ${rel} back from the bucket (${got.size} bytes, ${this.now() - started} ms)`);
      void this.evictIfShort().catch((e) => log.warn('Off-site copy: making room failed', e));
      return abs;
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOSPC' || code === 'EDQUOT') {
        log.warn(`Off-site copy: no room on the disk to fetch ${rel} back`);
        throw new AppError('storage_full', 'errors.storage_full');
      }
      const e = classify(err);
      log.warn(`Off-site copy: ${rel} could not be fetched back from the bucket (${e.problem}): ${e.message}`);
      throw originalAway();
    }
  }

  async reachable(scope: OriginalsScope): Promise<void> {
    let q = this.d.db
      .selectFrom('offsite_objects as o')
      .innerJoin('photos as p', 'p.stored_path', 'o.rel')
      .select('o.rel')
      .where('o.evicted', '=', 1)
      .where('o.state', '=', 'copied');
    if ('ids' in scope) {
      if (!scope.ids.length) return;
      q = q.where('p.id', 'in', scope.ids.slice(0, 5000));
    } else if (scope.visibleOnly) q = q.where('p.is_visible', '=', 1);
    const one = await q.limit(1).executeTakeFirst();
    if (!one) return;
    const bucket = this.d.bucket();
    if (!bucket) throw originalAway();
    try {
      await bucket.head(one.rel);
    } catch (err) {
      const e = classify(err);
      log.warn(`Off-site copy: the bucket does not answer (${e.problem}): ${e.message}`);
      throw originalAway();
    }
  }

  private fetchingBack = false;

  /**
   * keep_local "all" again: originals the disk gave up come back, a few at a time while there is
   * room and the bucket answers. Returns how many came back.
   */
  async fetchBack(max = 20): Promise<number> {
    if (this.fetchingBack || !this.d.bucket()) return 0;
    this.fetchingBack = true;
    try {
      if ((await this.shortBy()) > 0) return 0;
      const rows = await this.d.db
        .selectFrom('offsite_objects as o')
        .innerJoin('photos as p', 'p.stored_path', 'o.rel')
        .select(['o.rel', 'p.id'])
        .where('o.evicted', '=', 1)
        .where('o.state', '=', 'copied')
        .limit(max)
        .execute();
      let n = 0;
      for (const r of rows) {
        if (this.d.mayEvict()) break;
        await this.ensure({ id: r.id, stored_path: r.rel });
        n++;
      }
      return n;
    } catch {
      return 0; // the bucket is away: tried again at the next look
    } finally {
      this.fetchingBack = false;
    }
  }

  /** Bytes to free now: 0 while there is room. */
  async shortBy(): Promise<number> {
    const s = this.d.space;
    if (!s) return 0;
    const free = s.free ? await s.free() : await fs.promises.statfs(this.d.paths.root).then((st) => st.bavail * st.bsize);
    let need = 0;
    if (s.minFreeBytes > 0 && free < s.minFreeBytes * SHORT_FREE) need = s.minFreeBytes * ROOMY_FREE - free;
    if (s.limitBytes !== undefined) {
      const used = await s.used();
      if (used > s.limitBytes * NEAR_LIMIT) need = Math.max(need, used - s.limitBytes * ROOMY_LIMIT);
    }
    return Math.max(0, Math.ceil(need));
  }

  /** Frees room when the disk runs short (one run at a time). */
  evictIfShort(): Promise<EvictResult> {
    return this.once(async () => {
      const need = await this.shortBy();
      return need > 0 ? this.evict(need) : { files: 0, bytes: 0 };
    });
  }

  /** Every original that may leave, leaves (tests, and an operator who wants the room now); after a run under way, never instead of it. */
  async evictNow(): Promise<EvictResult> {
    while (this.running) await this.running.catch(() => {});
    return this.once(() => this.evict(Infinity));
  }

  private once(fn: () => Promise<EvictResult>): Promise<EvictResult> {
    if (!this.d.mayEvict()) return Promise.resolve({ files: 0, bytes: 0 });
    this.running ??= fn().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Oldest first until `goal` bytes are freed or nothing more may leave. */
  private async evict(goal: number): Promise<EvictResult> {
    const out: EvictResult = { files: 0, bytes: 0 };
    let after: { ts: string; id: string } | null = null;
    try {
      while (out.bytes < goal && this.d.mayEvict()) {
        const batch = await this.repo.evictionCandidates(after, 100);
        if (!batch.length) break;
        for (const c of batch) {
          if (out.bytes >= goal || !this.d.mayEvict()) break;
          const bucket = this.d.bucket();
          if (!bucket) break;
          if (await this.evictOne(bucket, c)) {
            out.files++;
            out.bytes += c.size;
          }
        }
        const last = batch[batch.length - 1];
        after = { ts: last.upload_timestamp, id: last.id };
      }
    } catch (err) {
      // The bucket is away: nothing more leaves until it answers again.
      if (!(err instanceof BucketError)) throw err;
      log.warn(`Off-site copy: originals stay on the disk while the bucket does not answer (${err.problem}): ${err.message}`);
    }
    if (out.files) log.info(`Off-site copy: ${out.files} original(s) (${out.bytes} bytes) left the local disk; the bucket holds them`);
    return out;
  }

  /** true when the original left the disk. Throws BucketError when the bucket does not answer. */
  private async evictOne(bucket: Bucket, c: Candidate): Promise<boolean> {
    if (this.isHeld(c.rel)) return false;
    const abs = inside(this.d.paths.root, c.rel);
    if (!abs) return false;
    const fh = await fs.promises.open(abs, 'r').catch(() => null);
    if (!fh) return false;
    try {
      const st = await fh.stat();
      // Changed since it was copied: the copier copies it again first.
      if (!st.isFile() || st.size !== c.size || Math.round(st.mtimeMs) !== c.mtime_ms) return false;
      if ((await sha256Of(fh)) !== c.sha256) return false;
      const head = await bucket.head(c.rel);
      if (!head || head.size !== c.size || (head.sha256 !== undefined && head.sha256 !== c.sha256)) {
        // The bucket no longer holds what it confirmed: copied again, and the file stays.
        log.warn(`Off-site copy: the bucket no longer holds ${c.rel} as it was copied; it is copied again`);
        await this.repo.update(c.rel, { state: 'pending', next_at: this.now(), copied_at: null });
        this.d.lost?.(c.rel);
        return false;
      }
      // Recorded first: from here a crash leaves a row that says "in the bucket", never a file taken for deleted.
      const marked = await this.d.db
        .updateTable('offsite_objects')
        .set({ evicted: 1 })
        .where('rel', '=', c.rel)
        .where('state', '=', 'copied')
        .where('evicted', '=', 0)
        .where('sha256', '=', c.sha256)
        .where('size', '=', c.size)
        .where('mtime_ms', '=', c.mtime_ms)
        .executeTakeFirst();
      if (Number(marked.numUpdatedRows) === 0) return false;
      const unmark = () => this.repo.update(c.rel, { evicted: 0 });
      if (this.isHeld(c.rel)) {
        await unmark();
        return false;
      }
      fs.mkdirSync(this.evictDir, { recursive: true });
      const aside = path.join(this.evictDir, crypto.randomBytes(8).toString('hex'));
      try {
        await fs.promises.rename(abs, aside);
      } catch {
        // Gone meanwhile (its photo deleted): the row stays "in the bucket" until the copier looks at its owner.
        return false;
      }
      const moved = await fs.promises.stat(aside);
      if (!sameFile(moved, st) || this.isHeld(c.rel)) {
        // Rewritten (a rotation) or asked for while it was checked: it goes back and stays. Should
        // another file have taken its name meanwhile, it stays beside it (the start-up sweep adopts it).
        await fs.promises.link(aside, abs).catch(() => fs.promises.link(aside, `${abs}.${path.basename(aside)}`));
        await fs.promises.rm(aside, { force: true });
        await unmark();
        return false;
      }
      await fs.promises.rm(aside, { force: true });
      return true;
    } finally {
      await fh.close();
    }
  }
}

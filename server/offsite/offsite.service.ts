import crypto from 'node:crypto';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { OffsiteSettingsView, OffsiteState, OffsiteStatusView } from '../../common/offsite-types.js';
import type { DataPaths } from '../context.js';
import type { Sqlite } from '../db/open.js';
import type { DB } from '../db/schema.js';
import { conflict, invalidAll } from '../errors.js';
import { translate } from '../i18n/messages.js';
import { log } from '../log.js';
import { Bucket, BucketError, classify, type BucketProblem } from './bucket.js';
import { Copier, type CopyError } from './copier.js';
import { copyDatabase, newestDatabaseCopy } from './db-copies.js';
import { LocalCache } from './eviction.js';
import { EVICT_EVERY_MS, type EvictResult, type LocalSpace } from './eviction-rules.js';
import { PROBLEM_KEYS, problemMessage } from './offsite-problems.js';
import {
  OFFSITE_DEFAULTS,
  destinationOf,
  effectiveSettings,
  isConfigured,
  isHttpUrl,
  normalizePrefix,
  type OffsiteEnv,
  type OffsiteField,
  type OffsiteSettings,
} from './offsite.config.js';

/** The database is copied at most this often while anything changes (and at shutdown). */
export const DB_COPY_EVERY_MS = 5 * 60_000;
/** Copying that has failed this long is told to the notification channels. */
export const TELL_AFTER_MS = 15 * 60_000;

/** What GET /admin/api/offsite answers (common/offsite-types.ts), the problem's code typed. */
export type OffsiteStatus = Omit<OffsiteStatusView, 'last_error'> & { last_error: { code: BucketProblem; message: string; at: string } | null };

export interface OffsiteDeps {
  db: Kysely<DB>;
  sqlite: Sqlite;
  paths: DataPaths;
  env: OffsiteEnv;
  /** Copying has failed for 15 minutes: the couple's channels are told (once until it works again). */
  onFailing?(error: CopyError): void;
  pollMs?: number;
  maxBackoffMs?: number;
  dbCopyEveryMs?: number;
  /** The disk's room (MIN_FREE_MB, STORAGE_LIMIT_GB, stored media): with keep_local "derivatives", originals leave when it runs short. */
  space?: LocalSpace;
  /** How often the disk is looked at for room (30 s), and how long an original asked for is kept from leaving (a minute). */
  evictEveryMs?: number;
  holdMs?: number;
  now?: () => number;
}

export { PROBLEM_KEYS, problemMessage };

/**
 * The off-site copy: its settings (environment over page), the copier, database copies every
 * few minutes while anything changes, and the status the admin pages show.
 */
export class OffsiteService {
  readonly copier: Copier;
  /** Originals as every reader gets them: fetched back from the bucket when the disk gave them up. */
  readonly originals: LocalCache;
  private lastEvictCheck = 0;
  private page: Partial<OffsiteSettings> = {};
  private current: OffsiteSettings = { ...OFFSITE_DEFAULTS };
  private lastDbCopyAt: number | null = null;
  private dbVersionAtCopy = -1;
  private dbCopying: Promise<void> | null = null;
  private told = false;
  private readonly now: () => number;

  constructor(private readonly d: OffsiteDeps) {
    this.now = d.now ?? Date.now;
    this.copier = new Copier({ db: d.db, paths: d.paths, pollMs: d.pollMs, maxBackoffMs: d.maxBackoffMs, now: this.now });
    this.copier.onPass = () => this.afterPass();
    this.originals = new LocalCache({
      db: d.db,
      paths: d.paths,
      bucket: () => this.copier.active,
      mayEvict: () => this.configured && this.current.keep_local === 'derivatives' && this.copier.active !== null,
      space: d.space,
      lost: (rel) => {
        this.copier.copied.delete(rel);
        this.copier.wake();
      },
      now: this.now,
      holdMs: d.holdMs,
    });
  }

  /** Every original that may leave the local disk leaves now (keep_local "derivatives"; tests). */
  evictNow(): Promise<EvictResult> {
    return this.originals.evictNow();
  }

  get settings(): OffsiteSettings {
    return this.current;
  }

  get configured(): boolean {
    return isConfigured(this.current);
  }

  async start(): Promise<void> {
    const saved = await this.copier.repo.meta('settings');
    this.page = saved ? (JSON.parse(saved) as Partial<OffsiteSettings>) : {};
    await this.originals.start();
    await this.apply();
  }

  async stop(): Promise<void> {
    await this.copier.stop();
    await this.dbCopying?.catch(() => {});
    // A last copy of the database as the site stops, when it changed since the last one.
    if (this.configured && this.dbChanged()) {
      const bucket = new Bucket(this.current, { timeoutMs: 15_000, maxAttempts: 1 });
      await copyDatabase(bucket, this.d.paths.database, this.workDir())
        .catch((e) => log.warn('Off-site copy: the database could not be copied at shutdown', e))
        .finally(() => bucket.destroy());
    }
  }

  private workDir(): string {
    return path.join(this.d.paths.root, 'offsite');
  }

  /** (Re)starts the copier on the settings in force. */
  private async apply(): Promise<void> {
    const next = effectiveSettings(this.d.env, this.page);
    await this.copier.stop();
    this.current = next;
    if (!isConfigured(next)) return;
    const dest = destinationOf(next);
    if ((await this.copier.repo.meta('destination')) !== dest) {
      // Another bucket (or prefix): what the old one holds says nothing of this one.
      await this.copier.repo.forgetAll();
      await this.copier.repo.setMeta('destination', dest);
      const left = await this.copier.repo.evictedCount();
      if (left) log.error(`Off-site copy: the bucket changed while ${left} original(s) were kept only in the old one; they are fetched from this one, which may not hold them. Set the old bucket again to bring them back.`);
      this.lastDbCopyAt = null;
    }
    this.told = false;
    const bucket = new Bucket(next);
    if (this.lastDbCopyAt === null) {
      try {
        this.lastDbCopyAt = (await newestDatabaseCopy(bucket))?.at.getTime() ?? null;
      } catch {
        // Unreachable now: the copier reports it; a database copy is made once it answers.
      }
    }
    await this.copier.start(bucket);
  }

  private dbVersion(): number {
    return this.d.sqlite.pragma('data_version', { simple: true }) as number;
  }

  private dbChanged(): boolean {
    return this.dbVersion() !== this.dbVersionAtCopy;
  }

  private async afterPass(): Promise<void> {
    const every = this.d.dbCopyEveryMs ?? DB_COPY_EVERY_MS;
    const bucket = this.copier.active;
    if (bucket && !this.dbCopying && this.now() >= this.copier.pausedUntil && (this.lastDbCopyAt === null || this.now() - this.lastDbCopyAt >= every) && this.dbChanged()) {
      const version = this.dbVersion();
      this.dbCopying = copyDatabase(bucket, this.d.paths.database, this.workDir(), new Date(this.now()))
        .then(() => {
          this.lastDbCopyAt = this.now();
          this.dbVersionAtCopy = version;
        })
        .catch((e) => {
          const err = classify(e);
          this.copier.lastError = { code: err.problem, message: err.message, at: new Date(this.now()).toISOString() };
          log.warn('Off-site copy: the database could not be copied', e);
        })
        .finally(() => {
          this.dbCopying = null;
        });
    }
    const evictEvery = this.d.evictEveryMs ?? EVICT_EVERY_MS;
    if (this.now() - this.lastEvictCheck >= evictEvery) {
      this.lastEvictCheck = this.now();
      // In the background: hashing what may leave, or fetching what comes back, must not hold up the copy.
      if (this.current.keep_local === 'derivatives') void this.originals.evictIfShort().catch((e) => log.warn('Off-site copy: making room on the disk failed', e));
      else void this.originals.fetchBack().catch((e) => log.warn('Off-site copy: fetching originals back failed', e));
    }
    const since = this.copier.failingSince;
    if (since === null) this.told = false;
    else if (!this.told && this.copier.failing && this.now() - since >= TELL_AFTER_MS && this.copier.lastError) {
      this.told = true;
      this.d.onFailing?.(this.copier.lastError);
    }
  }

  /** A database copy now (tests, and the first copy after a restore). */
  async copyDatabaseNow(): Promise<string> {
    const bucket = this.copier.active;
    if (!bucket) throw new BucketError('unknown', 'No bucket is set up');
    const version = this.dbVersion();
    const name = await copyDatabase(bucket, this.d.paths.database, this.workDir(), new Date(this.now()));
    this.lastDbCopyAt = this.now();
    this.dbVersionAtCopy = version;
    return name;
  }

  async status(translate: (key: string, values?: Record<string, string | number>) => string): Promise<OffsiteStatus> {
    const s = this.current;
    const configured = isConfigured(s);
    const totals = await this.copier.repo.totals();
    const e = this.copier.lastError;
    // Behind also while a change has no row yet (a photo just stored the copy has not looked at).
    const behind = totals.files_copied < totals.files_total || (await this.copier.repo.anyDirty());
    const state: OffsiteState = !configured ? 'off' : this.copier.failing ? 'failing' : behind ? 'behind' : 'ok';
    return {
      configured,
      state,
      ...totals,
      last_error: e ? { code: e.code, message: translate(problemMessage(e.code, s).key, problemMessage(e.code, s, e.message).values), at: e.at } : null,
      database: configured ? { last_copy_at: this.lastDbCopyAt === null ? null : new Date(this.lastDbCopyAt).toISOString() } : null,
      serve: configured && s.serve,
      keep_local: s.keep_local,
    };
  }

  /** A copy error in words, in `lang`. */
  describe(e: CopyError, lang: string): string {
    const m = problemMessage(e.code, this.current, e.message);
    return translate(lang, m.key, m.values);
  }

  view(): OffsiteSettingsView {
    const { secret_access_key, ...rest } = this.current;
    return { ...rest, has_secret: !!secret_access_key, from_env: Object.keys(this.d.env) as OffsiteField[] };
  }

  /** Checks a settings form; a secret left empty keeps the one saved. */
  private parse(body: unknown): Partial<OffsiteSettings> {
    const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    const problems: { key: string; values?: Record<string, string | number> }[] = [];
    const out: Partial<OffsiteSettings> = {};
    for (const f of ['endpoint', 'region', 'bucket', 'prefix', 'access_key_id', 'secret_access_key', 'public_url'] as const) {
      const v = b[f];
      if (v === undefined || v === null) continue;
      if (typeof v !== 'string' || v.length > 1000) {
        problems.push({ key: 'offsite.invalid.text', values: { field: f } });
        continue;
      }
      out[f] = v.trim();
    }
    for (const f of ['force_path_style', 'serve'] as const) {
      const v = b[f];
      if (v === undefined || v === null) continue;
      if (typeof v !== 'boolean') problems.push({ key: 'offsite.invalid.text', values: { field: f } });
      else out[f] = v;
    }
    if (b.keep_local !== undefined && b.keep_local !== null) {
      if (b.keep_local !== 'all' && b.keep_local !== 'derivatives') problems.push({ key: 'offsite.invalid.keep_local' });
      else out.keep_local = b.keep_local;
    }
    if (out.endpoint && !isHttpUrl(out.endpoint)) problems.push({ key: 'offsite.invalid.endpoint' });
    if (out.public_url && !isHttpUrl(out.public_url)) problems.push({ key: 'offsite.invalid.public_url' });
    if (out.bucket && !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(out.bucket)) problems.push({ key: 'offsite.invalid.bucket' });
    if (out.prefix !== undefined) out.prefix = normalizePrefix(out.prefix);
    if (problems.length) throw invalidAll(problems);
    if (out.secret_access_key === '') delete out.secret_access_key;
    return out;
  }

  /** Saves the page's settings (fields the environment sets stay as it says) and restarts the copy. */
  async save(body: unknown): Promise<OffsiteSettingsView> {
    const next = { ...this.page, ...this.parse(body) };
    // Another bucket while originals are kept only in this one: they would be left behind.
    const evicted = await this.copier.repo.evictedCount();
    if (evicted > 0 && destinationOf(effectiveSettings(this.d.env, next)) !== destinationOf(this.current))
      throw conflict('errors.offsite.originals_in_bucket', { count: evicted });
    await this.copier.repo.setMeta('settings', JSON.stringify(next));
    this.page = next;
    await this.apply();
    return this.view();
  }

  /**
   * "Test connection": writes, reads back and deletes a small object with the settings given
   * (over those saved; `{}` tries what is in force). Says in words what failed.
   */
  async test(body: unknown): Promise<{ ok: true } | { ok: false; problem: BucketProblem | 'not_configured'; message: { key: string; values?: Record<string, string | number> } }> {
    const s = effectiveSettings(this.d.env, { ...this.page, ...this.parse(body) });
    if (!isConfigured(s)) return { ok: false, problem: 'not_configured', message: problemMessage('not_configured', s) };
    const bucket = new Bucket(s, { timeoutMs: 10_000, maxAttempts: 1 });
    const rel = `offsite-test/${crypto.randomBytes(8).toString('hex')}.txt`;
    const body_ = Buffer.from(`Off-site copy test, ${new Date(this.now()).toISOString()}\n`);
    try {
      await bucket.putBytes(rel, body_, 'text/plain');
      const chunks: Buffer[] = [];
      for await (const c of await bucket.getStream(rel)) chunks.push(c as Buffer);
      if (!Buffer.concat(chunks).equals(body_)) throw new BucketError('checksum_mismatch', 'The test object came back with other bytes');
      await bucket.delete(rel);
      return { ok: true };
    } catch (err) {
      const e = classify(err);
      return { ok: false, problem: e.problem, message: problemMessage(e.problem, s, e.detail || e.message) };
    } finally {
      bucket.destroy();
    }
  }
}

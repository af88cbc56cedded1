import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { log } from '../log.js';
import type { Bucket } from './bucket.js';
import type { OffsiteSettings } from './offsite.config.js';

/** A presigned URL is signed for 6 hours... */
export const URL_LIFETIME_S = 6 * 60 * 60;
/** ...handed out for 5 (so every URL given has at least an hour left)... */
export const URL_REUSE_S = 5 * 60 * 60;
/** ...and signed again in the background from 4 on, so answers rarely find one too old to give. */
export const URL_RENEW_S = 4 * 60 * 60;

export interface ServingOptions {
  /** The clock URLs are signed and aged by (tests move it hours ahead). */
  now?: () => number;
  lifetimeS?: number;
  reuseS?: number;
  renewS?: number;
}

/** What serving reads of the off-site copy: its settings in force, the bucket, and what the bucket holds. */
export interface ServingSource {
  readonly settings: OffsiteSettings;
  readonly copier: { readonly active: Bucket | null; readonly copied: ReadonlySet<string>; readonly failing: boolean };
}

/** Only derivatives are ever served from the bucket: originals keep going through the site. */
const SERVABLE = /^media\/derived\/[^/]+\/[^/]+$/;

interface Signed {
  url: string;
  at: number;
}

/**
 * Where guests' browsers fetch a stored derivative from when S3_SERVE is on: the bucket, once it
 * confirmed its copy. `urlFor` answers from memory and never waits: a key without a fresh URL
 * answers null (the site serves it) and is signed in the background, one at a time, so the
 * gallery's hot path never pays for signing (the SDK takes about a millisecond per URL). Each
 * URL is signed for URL_LIFETIME_S and given out for at most URL_REUSE_S, so any URL in an
 * answer is good for at least the difference (an hour); from URL_RENEW_S on it is signed again.
 * With S3_PUBLIC_URL, derivatives are that base plus the key, nothing to sign.
 */
export class MediaServing {
  private readonly signed = new Map<string, Signed>();
  private readonly queue = new Set<string>();
  private signing: Promise<void> | null = null;
  /** The key being signed now (asked for again meanwhile, it is not queued twice). */
  private inFlight: string | null = null;
  private bucket: Bucket | null = null;
  private readonly now: () => number;
  private readonly lifetimeS: number;
  private readonly reuseMs: number;
  private readonly renewMs: number;
  private warned = false;

  constructor(
    private readonly source: ServingSource,
    o: ServingOptions = {},
  ) {
    this.now = o.now ?? Date.now;
    this.lifetimeS = o.lifetimeS ?? URL_LIFETIME_S;
    this.reuseMs = (o.reuseS ?? URL_REUSE_S) * 1000;
    this.renewMs = o.renewS !== undefined ? o.renewS * 1000 : o.reuseS !== undefined ? this.reuseMs * 0.8 : URL_RENEW_S * 1000;
    if (this.reuseMs > this.lifetimeS * 1000) throw new Error('A URL cannot be handed out for longer than it is signed for');
  }

  /** The bucket URLs are served from now, or null (serving off, no bucket, or the copier restarting). */
  private serving(): Bucket | null {
    const bucket = this.source.settings.serve ? this.source.copier.active : null;
    if (bucket !== this.bucket) {
      // Another bucket (settings saved): URLs signed for the old one say nothing of it.
      this.signed.clear();
      this.queue.clear();
      this.bucket = bucket;
    }
    return bucket;
  }

  /**
   * Whether guests are sent to the bucket now: not while copying to it fails (unreachable, 5xx,
   * refused), as its answers to guests would too; the site holds every derivative meanwhile.
   */
  private sending(): Bucket | null {
    const bucket = this.serving();
    return bucket && !this.source.copier.failing ? bucket : null;
  }

  idle(): boolean {
    return this.sending() === null;
  }

  /**
   * The bucket's URL for a stored derivative (a path relative to DATA_DIR), or null when the site
   * serves it: serving off, the bucket failing, not a derivative, not copied yet, or its URL still
   * being signed. The caller decides visibility: a hidden photo's files are never asked for.
   */
  urlFor(rel: string): string | null {
    const bucket = this.sending();
    if (!bucket || !SERVABLE.test(rel) || !this.source.copier.copied.has(rel)) return null;
    const base = this.source.settings.public_url;
    if (base) return publicUrl(base, bucket.key(rel));
    const s = this.signed.get(rel);
    const age = s ? this.now() - s.at : Infinity;
    if (age >= this.renewMs) this.sign(rel);
    return age < this.reuseMs ? s!.url : null;
  }

  /** Signs `rel` soon (once, however many answers ask meanwhile). */
  private sign(rel: string): void {
    if (rel !== this.inFlight) this.queue.add(rel);
    this.signing ??= this.drain().finally(() => {
      this.signing = null;
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.size) {
      const [rel] = this.queue;
      this.queue.delete(rel);
      const bucket = this.serving();
      if (!bucket || !this.source.copier.copied.has(rel)) continue;
      const at = this.now();
      this.inFlight = rel;
      try {
        const url = await getSignedUrl(bucket.client, new GetObjectCommand({ Bucket: bucket.name, Key: bucket.key(rel) }), {
          expiresIn: this.lifetimeS,
          signingDate: new Date(at),
        });
        // Signed for a bucket that was replaced meanwhile: dropped.
        if (bucket === this.bucket) this.signed.set(rel, { url, at });
      } catch (err) {
        // Signing is local work; a failure leaves the site serving the file.
        if (!this.warned) log.warn('Off-site copy: a URL for the bucket could not be signed; the site serves the file', err);
        this.warned = true;
      } finally {
        this.inFlight = null;
      }
      this.prune();
    }
  }

  /** URLs of files the bucket no longer holds (deleted photos, old versions) are let go. */
  private prune(): void {
    const copied = this.source.copier.copied;
    if (this.signed.size <= copied.size + 1000) return;
    for (const rel of this.signed.keys()) if (!copied.has(rel)) this.signed.delete(rel);
  }

  /** Resolves once every URL asked for so far is signed (tests, and a warm start). */
  async settled(): Promise<void> {
    while (this.signing) await this.signing;
  }
}

/** S3_PUBLIC_URL plus the object's key, each segment encoded as a URL path. */
export function publicUrl(base: string, key: string): string {
  return base.replace(/\/+$/, '') + '/' + key.split('/').map(encodeURIComponent).join('/');
}

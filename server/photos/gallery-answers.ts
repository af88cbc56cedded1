import crypto from 'node:crypto';
import type { SettingsService } from '../settings/settings.service.js';
import type { GalleryRepo } from './gallery.repo.js';

/** A page's whole answer, serialized once, with its ETag. */
export interface ReadyAnswer {
  body: Buffer;
  etag: string;
}

interface Kept extends ReadyAnswer {
  gallery: number;
  hearts: number;
  settings: object;
}

/** Bytes of answers kept at most (every guest scrolls through the same first pages: ~10 KB each). */
const MAX_KEPT_BYTES = 8 << 20;

export interface GalleryAnswersDeps {
  repo: GalleryRepo;
  settings: SettingsService;
  /** Whether any address in an answer may point at the couple's bucket now (those change by themselves). */
  bucketServing(): boolean;
  /** The answer's object, as GET /api/photos sends it to a guest who hearted none of the page. */
  build(limit: number, offset: number): Promise<object>;
}

/**
 * The plain gallery's answers (newest first, no filter), kept serialized while nothing in them
 * moved: the gallery's rows (gallery_version), a heart count (hearts_version) or the settings.
 * Every guest asks for the same first pages, so most answers are two small reads and the bytes.
 * A guest with hearts of their own on the page, a closed gallery and bucket addresses take the
 * ordinary way.
 */
export class GalleryAnswers {
  private readonly kept = new Map<string, Kept>();
  private keptBytes = 0;

  constructor(private readonly d: GalleryAnswersDeps) {}

  async get(limit: number, offset: number, guestId: string | undefined): Promise<ReadyAnswer | null> {
    const settings = await this.d.settings.get();
    if (settings.gallery_opens_at && Date.parse(settings.gallery_opens_at) > Date.now()) return null;
    if (this.d.bucketServing()) return null;
    const { gallery, hearts } = this.d.repo.marks();
    if (guestId) {
      const ids = this.d.repo.listVisible(limit, offset).map((r) => r.id);
      if (this.d.repo.heartedBy(guestId, ids).size > 0) return null;
    }
    const key = `${limit}:${offset}`;
    const k = this.kept.get(key);
    if (k && k.gallery === gallery && k.hearts === hearts && k.settings === settings) return k;
    const body = Buffer.from(JSON.stringify(await this.d.build(limit, offset)));
    const etag = `W/"${body.length.toString(16)}-${crypto.createHash('sha1').update(body).digest('base64').slice(0, 27)}"`;
    // Built from what was read after the marks: a change meanwhile bumps them, so this is never kept too long.
    const before = this.kept.get(key); // another request may have kept one meanwhile
    if (before) this.keptBytes -= before.body.length;
    if (this.keptBytes + body.length > MAX_KEPT_BYTES) {
      this.kept.clear();
      this.keptBytes = 0;
    }
    const answer = { body, etag, gallery, hearts, settings };
    this.kept.set(key, answer);
    this.keptBytes += body.length;
    return answer;
  }
}

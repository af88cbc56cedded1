import type { Kysely } from 'kysely';
import type { FaceSearchResponse, FaceSearchStatus, WeddingSettings } from '../../common/api-types.js';
import type { DataPaths, Originals } from '../context.js';
import type { DB } from '../db/schema.js';
import { AppError, invalid, notFound, unsupportedType } from '../errors.js';
import { log } from '../log.js';
import { photoRowToGalleryItem, withUploaderName } from '../photos/photos.mappers.js';
import { challengeTitle } from '../settings/challenges.js';
import { momentOf, momentWindows } from '../settings/moments.js';
import type { SettingsService } from '../settings/settings.service.js';
import { sniff } from '../uploads/sniff.js';
import type { FaceEngine } from './engine/face-engine.js';
import { FacesRepo } from './faces.repo.js';
import { FaceScanner } from './faces.scan.js';
import { similarity } from './similarity.js';

export interface FacesDeps {
  db: Kysely<DB>;
  paths: DataPaths;
  settings: SettingsService;
  engine: FaceEngine;
  /** Originals, fetched back from the couple's bucket when the local disk gave them up. */
  originals?: Originals;
}

const SELFIE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif']);
/** setTimeout's longest wait is about 24.8 days; a later end is checked again after a day. */
const RECHECK_MS = 24 * 60 * 60 * 1000;

const isOn = (s: WeddingSettings, now = Date.now()) => s.face_search && (!s.face_search_until || Date.parse(s.face_search_until) > now);

/**
 * "Find the photos you're in": a guest's selfie becomes one face code, kept with the list of
 * visible photos it was found in, until "Forget me", the search's end or the couple turning it
 * off. Nothing about anyone else is stored.
 */
export class FacesService {
  readonly repo: FacesRepo;
  readonly scanner: FaceScanner;
  private endTimer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: FacesDeps) {
    this.repo = new FacesRepo(deps.db);
    this.scanner = new FaceScanner({ repo: this.repo, engine: deps.engine, paths: deps.paths, originals: deps.originals });
  }

  /** After the server listens: resumes the guests' scans (their state was in memory) and arms the end. */
  async start(): Promise<void> {
    const s = await this.deps.settings.get();
    if (s.face_search && !isOn(s)) return void (await this.end());
    if (!s.face_search) {
      // Turned off while the server was down mid-deletion: nothing may be left.
      if ((await this.repo.counts()).guests > 0) await this.repo.deleteAll();
      return;
    }
    this.armEnd(s);
    this.scanner.prepare(await this.repo.unmeasured());
    for (const g of await this.repo.guests()) {
      const order = await this.repo.scanOrder(g.guestId);
      if (g.complete) this.scanner.addFinishedGuest(g.guestId, g.code, order.length);
      else this.scanner.addGuest(g.guestId, g.code, order);
    }
  }

  async stop(): Promise<void> {
    clearTimeout(this.endTimer);
    this.scanner.dropAll();
    await this.deps.engine.stop();
    await this.scanner.settled();
  }

  /** Settings changed: turned off (or its end moved into the past) deletes everything. */
  async settingsChanged(next: WeddingSettings, previous: WeddingSettings): Promise<void> {
    if (previous.face_search && !next.face_search) await this.deleteAll();
    if (next.face_search) this.armEnd(next);
    // Turned on: the gallery's face boxes are measured from now on, before anyone asks.
    if (!previous.face_search && isOn(next)) this.scanner.prepare(await this.repo.unmeasured());
  }

  /** Throws face_search_off unless guests may use it now; at its end, deletes everything first. */
  async requireOn(): Promise<WeddingSettings> {
    const s = await this.deps.settings.get();
    if (isOn(s)) return s;
    if (s.face_search) await this.end();
    throw new AppError('face_search_off', 'errors.faces.off');
  }

  /** Consent is checked first: without it the photo is not even looked at. */
  async search(guestId: string, selfie: { bytes: Buffer | undefined; consent: unknown }): Promise<FaceSearchResponse> {
    await this.requireOn();
    if (selfie.consent !== 'true') throw new AppError('consent_required', 'errors.faces.consent_required');
    if (!selfie.bytes?.length) throw invalid('errors.faces.no_selfie');
    const type = sniff(selfie.bytes.subarray(0, 64));
    if (!type || !SELFIE_TYPES.has(type.mime)) throw unsupportedType('errors.faces.wrong_type');
    let code: Float32Array | null;
    try {
      code = await this.deps.engine.selfie(selfie.bytes, type.mime === 'image/heic' || type.mime === 'image/heif');
    } catch (e) {
      log.debug('A selfie could not be read', e);
      throw new AppError('unprocessable', 'errors.faces.unreadable');
    }
    if (!code) throw new AppError('no_face', 'errors.faces.no_face');
    // The feature may have been turned off while the selfie was read.
    await this.requireOn();
    await this.repo.saveGuest(guestId, code);
    this.scanner.addGuest(guestId, code, await this.repo.scanOrder(guestId));
    return this.answer(guestId);
  }

  async answer(guestId: string): Promise<FaceSearchResponse> {
    const s = await this.requireOn();
    const guest = await this.repo.guest(guestId);
    if (!guest) throw notFound('errors.faces.not_searched');
    const windows = momentWindows(s);
    const rows = await this.repo.matches(guestId);
    const progress = this.scanner.progress(guestId) ?? { searching: false, scanned: 0, total: 0 };
    return {
      success: true,
      ...progress,
      matches: rows.map((r) => ({ ...withUploaderName(photoRowToGalleryItem(r, momentOf(r, windows), challengeTitle(s.challenges, r.challenge_id)), s.show_uploader_names), similarity: similarity(r.distance) })),
      until: s.face_search_until,
    };
  }

  async forget(guestId: string): Promise<void> {
    await this.requireOn();
    this.scanner.dropGuest(guestId);
    await this.repo.deleteGuest(guestId);
  }

  /** A photo became visible: compared with every guest who asked. */
  async photoVisible(photoId: string): Promise<void> {
    if (!isOn(await this.deps.settings.get())) return;
    this.scanner.addPhoto(photoId);
    this.scanner.prepare([photoId]);
  }

  async status(): Promise<FaceSearchStatus> {
    const s = await this.deps.settings.get();
    const backlog = this.scanner.backlog();
    return { enabled: isOn(s), until: isOn(s) ? s.face_search_until : null, ...(await this.repo.counts()), photos_to_scan: backlog.pictures + backlog.ahead, guests_searching: backlog.guests };
  }

  /**
   * Every face code, match and box, now; then the workers stop (their memory goes with them), and
   * whatever work under way wrote meanwhile is deleted too.
   */
  async deleteAll(): Promise<void> {
    this.scanner.dropAll();
    await this.repo.deleteAll();
    await this.deps.engine.stop();
    await this.scanner.settled();
    await this.repo.deleteAll();
  }

  /** The search's end: off, and everything deleted (through the settings listener). */
  private async end(): Promise<void> {
    clearTimeout(this.endTimer);
    const s = await this.deps.settings.get();
    if (s.face_search) await this.deps.settings.update({ face_search: false });
    else await this.deleteAll();
  }

  private armEnd(s: WeddingSettings): void {
    clearTimeout(this.endTimer);
    if (!s.face_search_until) return;
    const wait = Date.parse(s.face_search_until) - Date.now();
    this.endTimer = setTimeout(() => {
      this.deps.settings.get().then((now) => (isOn(now) ? this.armEnd(now) : this.end())).catch((e) => log.error('Could not end the face search', e));
    }, Math.max(0, Math.min(wait, RECHECK_MS)));
    this.endTimer.unref();
  }
}

import type { Readable } from 'node:stream';
import type { DataPaths, Originals } from '../context.js';
import { log } from '../log.js';
import { momentOf, momentWindows } from '../settings/moments.js';
import type { SettingsService } from '../settings/settings.service.js';
import { resolveStored } from '../photos/photo-files.js';
import { ExportManifest, manifestEntry } from './export.manifest.js';
import { keepsakeHtml, KEEPSAKE_NAME, localClock, voiceNoteName, type ExportMessage } from './guestbook-keepsake.js';
import { archiveFileName, clockTimeToZipDate, entryName, parseClockTime, sanitizeSegment, UniqueNames, type ArchiveFileName } from './export.names.js';
import type { ExportPhoto, ExportRepo } from './export.repo.js';
import { gpsPatches, type Patch } from './gps-free.js';
import { appendToZip, createZip, HashingFileReader } from './zip.js';

/** `guest`: every visible photo with its GPS location taken out, without the manifest (a guest's download). */
export type ExportRequest = { kind: 'all' | 'visible' | 'guest' } | { kind: 'selected'; ids: string[] };

export const MANIFEST_NAME = 'manifest.json';

/**
 * Entries handed to archiver ahead of the one being written: enough to hide the gap
 * between files, few enough that open descriptors and queued buffers stay bounded.
 */
const LOOKAHEAD = 2;

/** Resolves once the reader has closed its file (at once if it already has). */
function closedOf(reader: HashingFileReader): Promise<void> {
  return reader.closed ? Promise.resolve() : new Promise((resolve) => reader.once('close', () => resolve()));
}

interface Pending {
  name: string;
  /** The file being read into the entry; none for an entry made from memory (the keepsake page). */
  reader?: HashingFileReader;
  /** Once archiver has taken the whole entry: what the manifest records of it. */
  written(bytes: number, sha256: string): void;
}

/** One archive being written; whoever sends it tells the run how the sending ended. */
export interface ExportRun {
  /** The ZIP bytes as they are written, paced by whoever reads them. */
  archive: Readable;
  /** The receiver is done: `delivered` when it took every byte, false when it went away early. */
  settle(delivered: boolean): void;
  /** Resolves when the run is over, however it ended. */
  done: Promise<void>;
}

/** Streams ZIPs of originals; keeps track of running exports so shutdown can end them. */
export class ExportService {
  private readonly running = new Set<() => void>();

  constructor(
    private readonly repo: ExportRepo,
    private readonly paths: DataPaths,
    private readonly settings: SettingsService,
    private readonly originals: Originals,
  ) {}

  /** Refuses (503) before any byte is sent when originals the archive needs are only in the bucket and it does not answer. */
  originalsReachable(request: ExportRequest): Promise<void> {
    return this.originals.reachable(request.kind === 'selected' ? { ids: request.ids } : { visibleOnly: request.kind !== 'all' });
  }

  /** Ends every export in progress (their clients see an interrupted download and can retry). */
  abortAll(): void {
    for (const abort of [...this.running]) abort();
  }

  /** The archive's file name: the couple's names, what it holds, today's date. */
  async archiveName(kind: ExportRequest['kind']): Promise<ArchiveFileName> {
    const { couple_names } = await this.settings.get();
    return archiveFileName(couple_names, kind === 'guest' ? 'all' : kind, new Date());
  }

  /**
   * Starts writing the archive. When the run is stopped before the end (shutdown, a failure,
   * the receiver gone), the archive is detached from wherever it was piped and, once its
   * originals are closed, `onStop` runs: the receiver must be dropped, not ended, so the
   * download shows as interrupted.
   */
  start(request: ExportRequest, onStop: () => void): ExportRun {
    const started = Date.now();
    const zip = createZip();
    const manifest = new ExportManifest();
    const names = new UniqueNames();
    names.reserve(MANIFEST_NAME);
    const pending: Pending[] = [];
    let stopped = false;
    let finished = false;
    let opening: Promise<HashingFileReader> | undefined;
    let wake: (() => void) | undefined;
    const nudge = () => {
      const w = wake;
      wake = undefined;
      w?.();
    };
    const waitForProgress = () => new Promise<void>((resolve) => (wake = resolve));

    const stop = (reason: string, err?: unknown) => {
      if (stopped || finished) return;
      stopped = true;
      if (err) log.error(`Export stopped: ${reason}`, err);
      else log.info(`Export stopped: ${reason}`);
      // Detached first: an aborted archive ends like a finished one and would look complete.
      zip.unpipe();
      zip.abort();
      // The receiver is dropped once the originals are closed (one may still be opening), so
      // whoever sees the download end can count on no file being held for it any more.
      const closing = pending.flatMap((p) => (p.reader ? [closedOf(p.reader)] : []));
      if (opening) closing.push(opening.then(closedOf, () => {}));
      for (const p of pending) p.reader?.destroy();
      pending.length = 0;
      void Promise.all(closing).then(onStop);
      nudge();
    };
    const abortForShutdown = () => stop('the server is shutting down');
    this.running.add(abortForShutdown);

    let settle: (delivered: boolean) => void = () => {};
    const settled = new Promise<boolean>((resolve) => {
      let once = false;
      settle = (delivered) => {
        if (once) return;
        once = true;
        if (!delivered) stop('the client went away');
        resolve(delivered);
      };
    });
    zip.on('warning', (err) => log.warn('Export warning', err));
    zip.on('error', (err) => stop('writing the archive failed', err));
    zip.on('entry', (entry) => {
      if (entry.name === MANIFEST_NAME && pending.length === 0) return;
      const done = pending.shift();
      if (!done || done.name !== entry.name || (done.reader && done.reader.sha256 === undefined)) {
        stop('the archive lost track of its entries', new Error(`unexpected entry ${entry.name}`));
        return;
      }
      if (done.reader) done.written(done.reader.bytes, done.reader.sha256!);
      nudge();
    });

    /**
     * Opens a file and queues it as the entry `nameFor()` names (claimed only once it opened);
     * false when the run stopped. A file that cannot be opened is left out and told to `unreadable`.
     */
    const addFile = async (
      abs: string | null,
      nameFor: () => string,
      when: Date,
      written: (name: string, bytes: number, sha256: string) => void,
      unreadable: (code: string | undefined) => void,
      patches?: Patch[],
    ): Promise<boolean> => {
      while (!stopped && pending.length >= LOOKAHEAD) await waitForProgress();
      if (stopped) return false;
      let reader: HashingFileReader;
      try {
        if (!abs) throw Object.assign(new Error('outside DATA_DIR'), { code: 'ENOENT' });
        opening = HashingFileReader.open(abs, patches);
        reader = await opening;
      } catch (err) {
        opening = undefined;
        unreadable((err as NodeJS.ErrnoException).code);
        return true;
      }
      opening = undefined;
      if (stopped) {
        reader.destroy();
        return false;
      }
      // Errors surface through the archive; this listener only keeps an early failure from being unhandled.
      reader.on('error', () => {});
      const name = nameFor();
      pending.push({ name, reader, written: (bytes, sha256) => written(name, bytes, sha256) });
      appendToZip(zip, reader, { name, date: when });
      return true;
    };

    /** The visible guestbook: each voice note as sent, then the keepsake page that links to them. */
    const addGuestbook = async (): Promise<void> => {
      const s = await this.settings.get();
      const messages: { m: ExportMessage; file: string | null }[] = [];
      for await (const m of this.repo.visibleMessages()) {
        const at = localClock(m.created_at, s.time_zone);
        let file: string | null = null;
        const voice = (name: string, bytes: number, sha256: string) =>
          manifest.addVoiceNote({ name, id: m.id, guest_name: m.name, created_at: m.created_at, content_type: m.audio_type, duration: m.duration, file_size: bytes, sha256 });
        const missing = (code: string | undefined) => log.warn(`Export: voice note of guestbook message ${m.id} unreadable (${code ?? 'unknown'})`);
        if (m.audio_path && !(await addFile(resolveStored(this.paths, m.audio_path), () => (file = voiceNoteName(m, s.time_zone, names)), at ? clockTimeToZipDate(at) : new Date(), voice, missing))) return;
        messages.push({ m, file });
      }
      while (!stopped && pending.length >= LOOKAHEAD) await waitForProgress();
      if (stopped || !messages.length) return;
      const name = names.claim(KEEPSAKE_NAME);
      pending.push({ name, written: () => {} });
      appendToZip(zip, keepsakeHtml({ couple: s.couple_names.filter(Boolean).join(' & '), timeZone: s.time_zone, lang: s.default_language, messages }), { name, date: new Date() });
    };

    /** The films and photo books made from the day, in keepsakes/ (named by kind, date and paper). */
    const addKeepsakes = async (): Promise<void> => {
      for (const k of await this.repo.readyKeepsakes()) {
        if (stopped || !k.path) return;
        const paper = k.kind === 'book' ? (JSON.parse(k.options) as { paper?: string }).paper : undefined;
        const base = `keepsakes/${k.kind}-${k.created_at.slice(0, 10)}${paper ? `-${paper}` : ''}${k.kind === 'film' ? '.mp4' : '.pdf'}`;
        const missing = (code: string | undefined) => log.warn(`Export: keepsake ${k.id} unreadable (${code ?? 'unknown'})`);
        if (!(await addFile(resolveStored(this.paths, k.path), () => names.claim(base), new Date(k.created_at), () => {}, missing))) return;
      }
    };

    const fill = async (): Promise<void> => {
      try {
        // One folder per moment (schedule item); a file outside every moment stays at the root.
        const windows = momentWindows(await this.settings.get());
        const folderOf = (p: ExportPhoto) => {
          const moment = momentOf(p, windows);
          return moment === null ? '' : `${sanitizeSegment(moment, 'Moment')}/`;
        };
        const photos =
          request.kind === 'selected'
            ? this.repo.byIds(request.ids, (id) => manifest.addMissing(id))
            : this.repo.scan(request.kind !== 'all');
        const guest = request.kind === 'guest';
        for await (const photo of photos) {
          const when = parseClockTime(photo.date_taken) ?? parseClockTime(photo.upload_timestamp);
          const unreadable = (code: string | undefined) => {
            manifest.addUnreadable(
              photo,
              code === 'ENOENT' ? 'The original file is missing.' : code === 'unavailable' ? 'The original is kept in the off-site copy, which could not be reached.' : 'The original file could not be read.',
            );
            log.warn(`Export: original of ${photo.id} unreadable (${code ?? 'unknown'})`);
          };
          const written = (name: string, bytes: number, sha256: string) => manifest.addFile(manifestEntry(photo, name, bytes, sha256));
          // A stored path that would lead out of DATA_DIR counts as a missing original; one the disk
          // gave up is fetched back from the bucket first (left out, and said so, if it cannot be).
          const fetched = await this.originals.ensure(photo).then(
            (file) => ({ file, failed: false as const }),
            (err: { code?: string } | null) => ({ file: null, failed: true as const, code: err?.code }),
          );
          if (stopped) break;
          if (fetched.failed) {
            if (!guest) unreadable(fetched.code);
            continue;
          }
          const abs = fetched.file;
          let patches: Patch[] | undefined;
          if (guest) {
            if (stopped) break;
            if (!abs) continue;
            // A file whose metadata cannot be read for its location is left out rather than sent with it.
            patches = await gpsPatches(abs, photo.content_type).catch((err: NodeJS.ErrnoException) => {
              if (err.code !== 'ENOENT') log.warn(`Export: the location of ${photo.id} could not be found to remove it`, err);
              return undefined;
            });
            if (!patches) continue;
          }
          if (!(await addFile(abs, () => names.claim(folderOf(photo) + entryName(photo)), when ? clockTimeToZipDate(when) : new Date(), written, unreadable, patches))) break;
        }
        // An export of chosen photos is just those, a guest's download just the photos; the whole site's also holds the guestbook and the keepsakes.
        if (!stopped && request.kind !== 'selected' && !guest) await addGuestbook();
        if (!stopped && request.kind !== 'selected' && !guest) await addKeepsakes();
        while (!stopped && pending.length > 0) await waitForProgress();
        if (stopped) return;
        // Last, so it can carry the checksums of the bytes actually written.
        if (!guest) appendToZip(zip, manifest.toBuffer(), { name: MANIFEST_NAME, date: new Date() });
        // Failures arrive through the 'error' listener too; the receiver settling is the one end signal.
        zip.finalize().catch(() => {});
        const delivered = await settled;
        if (!stopped && delivered) {
          finished = true;
          log.info(`Export of ${manifest.fileCount} files (${zip.pointer()} bytes) sent in ${Date.now() - started} ms`);
        }
      } catch (err) {
        stop('reading the photos failed', err);
      } finally {
        this.running.delete(abortForShutdown);
      }
    };
    return { archive: zip, settle: (delivered) => settle(delivered), done: fill() };
  }
}

import type { ServerResponse } from 'node:http';
import path from 'node:path';
import type { DataPaths } from '../context.js';
import { log } from '../log.js';
import type { SettingsService } from '../settings/settings.service.js';
import { ExportManifest, manifestEntry } from './export.manifest.js';
import { archiveFileName, clockTimeToZipDate, contentDisposition, entryName, parseClockTime, UniqueNames, type ExportKind } from './export.names.js';
import type { ExportPhoto, ExportRepo } from './export.repo.js';
import { appendToZip, createZip, HashingFileReader } from './zip.js';

export type ExportRequest = { kind: 'all' | 'visible' } | { kind: 'selected'; ids: string[] };

export const MANIFEST_NAME = 'manifest.json';

/**
 * Entries handed to archiver ahead of the one being written: enough to hide the gap
 * between files, few enough that open descriptors and queued buffers stay bounded.
 */
const LOOKAHEAD = 2;

interface Pending {
  photo: ExportPhoto;
  name: string;
  reader: HashingFileReader;
}

/** Streams ZIPs of originals; keeps track of running exports so shutdown can end them. */
export class ExportService {
  private readonly running = new Set<() => void>();

  constructor(
    private readonly repo: ExportRepo,
    private readonly paths: DataPaths,
    private readonly settings: SettingsService,
  ) {}

  /** Ends every export in progress (their clients see an interrupted download and can retry). */
  abortAll(): void {
    for (const abort of [...this.running]) abort();
  }

  get activeCount(): number {
    return this.running.size;
  }

  /** Sends headers at once, then the archive as it is written; resolves when the response is over. */
  async stream(request: ExportRequest, res: ServerResponse): Promise<void> {
    const started = Date.now();
    const { couple_names } = await this.settings.get();
    const file = archiveFileName(couple_names, request.kind as ExportKind, new Date());
    // Gone while the settings were read: nothing to write to.
    if (res.destroyed || !res.socket || res.socket.destroyed) return;
    res.writeHead(200, {
      'Content-Type': 'application/zip',
      'Content-Disposition': contentDisposition(file),
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no', // nginx would otherwise buffer the whole download
    });
    // HEAD gets the headers only; building the archive would read every original for nothing.
    if (res.req?.method === 'HEAD') {
      res.end();
      return;
    }
    res.flushHeaders();

    const zip = createZip();
    const manifest = new ExportManifest();
    const names = new UniqueNames();
    names.reserve(MANIFEST_NAME);
    const pending: Pending[] = [];
    let stopped = false;
    let finished = false;
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
      zip.unpipe(res);
      zip.abort();
      for (const p of pending) p.reader.destroy();
      pending.length = 0;
      if (!res.destroyed) res.destroy();
      nudge();
    };
    const abortForShutdown = () => stop('the server is shutting down');
    this.running.add(abortForShutdown);

    const closed = new Promise<void>((resolve) =>
      res.on('close', () => {
        if (!res.writableFinished) stop('the client went away');
        resolve();
      }),
    );
    zip.on('warning', (err) => log.warn('Export warning', err));
    zip.on('error', (err) => stop('writing the archive failed', err));
    zip.on('entry', (entry) => {
      if (entry.name === MANIFEST_NAME && pending.length === 0) return;
      const done = pending.shift();
      if (!done || done.name !== entry.name || done.reader.sha256 === undefined) {
        stop('the archive lost track of its entries', new Error(`unexpected entry ${entry.name}`));
        return;
      }
      manifest.addFile(manifestEntry(done.photo, done.name, done.reader.bytes, done.reader.sha256));
      nudge();
    });
    zip.pipe(res);

    try {
      const photos =
        request.kind === 'selected'
          ? this.repo.byIds(request.ids, (id) => manifest.addMissing(id))
          : this.repo.scan(request.kind === 'visible');
      for await (const photo of photos) {
        while (!stopped && pending.length >= LOOKAHEAD) await waitForProgress();
        if (stopped) break;
        let reader: HashingFileReader;
        try {
          reader = await HashingFileReader.open(path.resolve(this.paths.root, photo.stored_path));
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          manifest.addUnreadable(photo, code === 'ENOENT' ? 'The original file is missing.' : 'The original file could not be read.');
          log.warn(`Export: original of ${photo.id} unreadable (${code ?? String(err)})`);
          continue;
        }
        if (stopped) {
          reader.destroy();
          break;
        }
        // Errors surface through the archive; this listener only keeps an early failure from being unhandled.
        reader.on('error', () => {});
        const when = parseClockTime(photo.date_taken) ?? parseClockTime(photo.upload_timestamp);
        const name = names.claim(entryName(photo));
        pending.push({ photo, name, reader });
        appendToZip(zip, reader, { name, date: when ? clockTimeToZipDate(when) : new Date() });
      }
      while (!stopped && pending.length > 0) await waitForProgress();
      if (stopped) return;
      // Last, so it can carry the checksums of the bytes actually written.
      appendToZip(zip, manifest.toBuffer(), { name: MANIFEST_NAME, date: new Date() });
      // Failures arrive through the 'error' listener too; the response closing is the one end signal.
      zip.finalize().catch(() => {});
      await closed;
      if (!stopped && res.writableFinished) {
        finished = true;
        log.info(`Export of ${manifest.fileCount} files (${zip.pointer()} bytes) sent in ${Date.now() - started} ms`);
      }
    } catch (err) {
      stop('reading the photos failed', err);
    } finally {
      this.running.delete(abortForShutdown);
    }
  }
}

import fs from 'node:fs/promises';
import { Router, type Request } from 'express';
import type { DataPaths, Originals } from '../context.js';
import { AppError, notFound } from '../errors.js';
import { withRealExtension } from '../photos/file-names.js';
import { PHOTO_NOT_FOUND } from '../photos/photos.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { ExportRepo } from './export.repo.js';
import { contentDisposition, sendArchive } from './export.routes.js';
import type { ExportService } from './export.service.js';
import { gpsPatches } from './gps-free.js';
import { HashingFileReader } from './zip.js';

/** Gallery ZIPs one client address may stream at once (a venue's guests often share one address). */
export const ZIPS_PER_ADDRESS = 2;

/**
 * Guests' downloads (setting guest_downloads): GET /api/photos/:id/download, one visible photo as
 * it was taken, under its own name, without its location (a video: a copy of its original whose
 * location metadata is blanked, gps-free.ts), and GET /api/export.zip, every visible photo the
 * same way in one streamed ZIP with a folder per moment.
 */
export function guestDownloadsRouter(deps: { service: ExportService; repo: ExportRepo; paths: DataPaths; settings: SettingsService; originals: Originals }): Router {
  const r = Router();
  const zipsByAddress = new Map<string, number>();

  const downloadsOn = async () => {
    if (!(await deps.settings.get()).guest_downloads) throw new AppError('downloads_off', 'errors.downloads.off');
  };

  r.get('/photos/:id/download', async (req, res) => {
    await downloadsOn();
    const photo = await deps.repo.visible(String(req.params.id));
    if (!photo) throw notFound(PHOTO_NOT_FOUND);
    // A stored path that would lead out of DATA_DIR is treated as a missing file.
    const file = await deps.originals.ensure(photo);
    if (!file) throw notFound(PHOTO_NOT_FOUND);
    const missing = (e: NodeJS.ErrnoException) => {
      throw e.code === 'ENOENT' ? notFound(PHOTO_NOT_FOUND) : e;
    };
    const patches = await gpsPatches(file, photo.content_type).catch(missing);
    // The file as it is now (a rotation may have rewritten it since it was stored).
    const size = (await fs.stat(file).catch(missing)).size;
    const reader = await HashingFileReader.open(file, patches).catch(missing);
    const name = withRealExtension(photo.original_filename, photo.content_type);
    res.writeHead(200, {
      'Content-Type': photo.content_type,
      'Content-Length': String(size),
      'Content-Disposition': contentDisposition({ ascii: name.replace(/[^\x20-\x7e]|["\\]/g, '_'), unicode: name }),
      'Cache-Control': 'private, no-store',
    });
    res.on('close', () => reader.destroy());
    reader.on('error', () => res.destroy());
    reader.pipe(res);
  });

  r.get('/export.zip', async (req, res) => {
    await downloadsOn();
    const address = clientAddress(req);
    const held = zipsByAddress.get(address) ?? 0;
    if (held >= ZIPS_PER_ADDRESS) throw new AppError('rate_limited', 'errors.downloads.too_many', { max: ZIPS_PER_ADDRESS }, { retry_after: 60 });
    zipsByAddress.set(address, held + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const left = (zipsByAddress.get(address) ?? 1) - 1;
      if (left > 0) zipsByAddress.set(address, left);
      else zipsByAddress.delete(address);
    };
    res.on('close', release);
    try {
      await sendArchive(deps.service, { kind: 'guest' }, req, res);
    } finally {
      if (res.writableFinished || res.destroyed) release();
    }
  });
  return r;
}

const clientAddress = (req: Request) => req.ip ?? req.socket.remoteAddress ?? '';

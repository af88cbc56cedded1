import type { Config } from '../config.js';
import type { Originals } from '../context.js';
import type { Module } from '../http/module.js';
import { log } from '../log.js';
import { DownloadTokens } from './download-tokens.js';
import { mediaRouter } from './media.routes.js';
import { finishRemovals } from './photo-removal.js';
import { adminPhotosRouter, galleryFirstScreen, publicPhotosRouter } from './photos.routes.js';
import { PhotosService, type PhotosDeps } from './photos.service.js';

export interface PhotosModuleDeps extends PhotosDeps {
  config: Config;
  /** Originals, fetched back from the couple's bucket when the local disk gave them up (the admins' download). */
  originals?: Originals;
}

/** Stored photos: the public gallery, stats and upload status poll, moderation, and the /media files. */
export function createPhotosModule({ paths, db, sqlite, bus, processing, settings, media, originals }: PhotosModuleDeps): Module {
  const photos = new PhotosService({ paths, db, sqlite, bus, processing, settings, media });
  const downloads = new DownloadTokens();
  // moderation "auto": each photo processing finishes is offered for approval.
  const stopAutoApproval = processing.onProcessed((id) => photos.autoApprove(id));
  const stopListing = processing.onWebCopy((id) => photos.announceListed(id));
  return {
    name: 'photos',
    publicApi: [publicPhotosRouter(photos)],
    adminApi: [adminPhotosRouter(photos, downloads)],
    root: [mediaRouter(paths, photos, downloads, originals)],
    firstScreen: galleryFirstScreen(photos),
    async start() {
      await finishRemovals({ db, paths }).catch((e) => log.warn('Could not remove the files left by deleted photos; trying again at the next start', e));
    },
    stop() {
      stopAutoApproval();
      stopListing();
    },
  };
}

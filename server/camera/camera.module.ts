import type { Kysely } from 'kysely';
import type { Originals } from '../context.js';
import type { DB } from '../db/schema.js';
import type { Module } from '../http/module.js';
import type { UploadsService } from '../uploads/uploads.service.js';
import { Booths } from './booth.js';
import { adminBoothRouter, publicBoothRouter, shareRouter } from './booth.routes.js';
import { shotsRouter } from './camera.routes.js';
import type { Shots } from './shots.js';

export interface CameraDeps {
  shots: Shots;
  db: Kysely<DB>;
  uploads: UploadsService;
  originals: Originals;
  /** The booth's clock (its QR codes' 7 days in tests). */
  now?: () => number;
}

/** The camera's server side: the guests' shots left (the disposable-camera game) and the photo booth. */
export function createCameraModule(deps: CameraDeps): Module {
  const booths = new Booths(deps.db, deps.now);
  return {
    name: 'camera',
    publicApi: [shotsRouter(deps.shots), publicBoothRouter(booths, deps.uploads)],
    adminApi: [adminBoothRouter(booths)],
    root: [shareRouter(booths, deps.db, deps.originals)],
  };
}

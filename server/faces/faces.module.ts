import type { Kysely } from 'kysely';
import type { DataPaths, Originals } from '../context.js';
import type { DB } from '../db/schema.js';
import type { EventBus } from '../events/bus.js';
import type { Module } from '../http/module.js';
import { log } from '../log.js';
import type { SettingsService } from '../settings/settings.service.js';
import { FaceEngine } from './engine/face-engine.js';
import { adminFacesRouter, publicFacesRouter } from './faces.routes.js';
import { FacesService } from './faces.service.js';

/** Face workers stop after this long without a picture or a selfie to read. */
export const FACE_IDLE_MS = 3 * 60_000;

export interface FacesModuleDeps {
  db: Kysely<DB>;
  paths: DataPaths;
  settings: SettingsService;
  bus: EventBus;
  /** Face worker processes (FACE_WORKERS) and their nice value (FACE_NICE). */
  faceWorkers: number;
  faceNice: number;
  /** Originals, fetched back from the couple's bucket when the local disk gave them up. */
  originals?: Originals;
}

/** "Find the photos you're in": the guests' selfie search and the admins' view of it. */
export function createFacesModule(deps: FacesModuleDeps): Module & { faces: FacesService } {
  const engine = new FaceEngine({
    workers: deps.faceWorkers,
    nice: deps.faceNice,
    idleMs: FACE_IDLE_MS,
  });
  const faces = new FacesService({ db: deps.db, paths: deps.paths, settings: deps.settings, engine, originals: deps.originals });
  const unsubscribe: (() => void)[] = [];
  const warn = (what: string) => (e: unknown) => log.warn(`Face search: ${what}`, e);
  return {
    name: 'faces',
    faces,
    publicApi: [publicFacesRouter(faces)],
    adminApi: [adminFacesRouter(faces)],
    async start() {
      unsubscribe.push(deps.settings.onChange((next, previous) => faces.settingsChanged(next, previous)));
      unsubscribe.push(
        deps.bus.subscribe((ev) => {
          const item = ev.data as { id: string; content_type?: string };
          // Videos are not searched (their poster frame is rarely a face worth finding).
          if (ev.type === 'photo-visible' && item.content_type?.startsWith('image/')) faces.photoVisible(item.id).catch(warn('a new photo was not compared'));
        }),
      );
      await faces.start();
    },
    async stop() {
      for (const u of unsubscribe.splice(0)) u();
      await faces.stop();
    },
  };
}

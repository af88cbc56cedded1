import type { Module } from '../http/module.js';
import { adminKeepsakesRouter, publicKeepsakesRouter } from './keepsakes.routes.js';
import { KeepsakesService, type KeepsakesDeps } from './keepsakes.service.js';

/** Films and photo books made from the day, and the film the couple shares on the gallery page. */
export function createKeepsakesModule(deps: KeepsakesDeps): Module & { keepsakes: KeepsakesService } {
  const keepsakes = new KeepsakesService(deps);
  const unhandle = deps.processing.keepsakes.handle(keepsakes);
  return {
    name: 'keepsakes',
    keepsakes,
    publicApi: [publicKeepsakesRouter(keepsakes)],
    adminApi: [adminKeepsakesRouter(keepsakes, deps.paths, deps.processing.voiceNotes.probe)],
    stop: unhandle,
  };
}

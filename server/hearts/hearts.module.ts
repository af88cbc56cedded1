import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { Module } from '../http/module.js';
import { heartsRouter } from './hearts.routes.js';
import { HeartsService } from './hearts.service.js';

/** Guests' hearts on photos (the counts and "Most loved" are read by the gallery, photos/). */
export function createHeartsModule(deps: { db: Kysely<DB> }): Module {
  return { name: 'hearts', publicApi: [heartsRouter(new HeartsService(deps.db))] };
}

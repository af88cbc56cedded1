import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { Module } from '../http/module.js';
import { log } from '../log.js';
import type { Processing } from '../processing/processing.service.js';
import { SimilarShots } from './similar.service.js';

/**
 * Similar shots: each image processing measures joins its group (the admin list, keep-best and
 * the flagged filter live in photos/). At start, images stored before measures existed are
 * measured by a backfill in the processing queue.
 */
export function createSimilarModule(deps: { db: Kysely<DB>; processing: Processing }): Module {
  const similar = new SimilarShots(deps.db);
  const stop = deps.processing.onMeasured((id) => similar.place(id));
  return {
    name: 'similar',
    start() {
      deps.processing.measureAll().catch((e) => log.warn('Could not start measuring the photos stored before', e));
    },
    stop,
  };
}

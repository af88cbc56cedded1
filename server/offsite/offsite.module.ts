import type { Module } from '../http/module.js';
import { offsiteRouter } from './offsite.routes.js';
import type { OffsiteService } from './offsite.service.js';

/** The off-site copy to the couple's bucket: its status and settings, started after the server listens. */
export function createOffsiteModule({ offsite }: { offsite: OffsiteService }): Module {
  return {
    name: 'offsite',
    adminApi: [offsiteRouter(offsite)],
    start: () => offsite.start(),
    stop: () => offsite.stop(),
  };
}

import type { Module } from '../http/module.js';
import { adminUploadersRouter, myUploadsRouter } from './guests.routes.js';
import { GuestsService, type GuestsDeps } from './guests.service.js';

/** Guests by name: "my uploads" for the guest's own cookie, and the uploader names for admins. */
export function createGuestsModule(deps: GuestsDeps): Module {
  const guests = new GuestsService(deps);
  return {
    name: 'guests',
    publicApi: [myUploadsRouter(guests)],
    adminApi: [adminUploadersRouter(guests)],
  };
}

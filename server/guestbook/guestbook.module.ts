import type { Module } from '../http/module.js';
import { adminGuestbookRouter, publicGuestbookRouter } from './guestbook.routes.js';
import { GuestbookService, type GuestbookDeps } from './guestbook.service.js';
import { voiceCopyHandler } from './voice-copies.js';

/** Guestbook messages with voice notes: writing and reading them, a guest's own, moderation. */
export function createGuestbookModule(deps: GuestbookDeps): Module {
  const guestbook = new GuestbookService(deps);
  // Processing makes each voice note's playable copy; a ready one may be approved automatically.
  const unhandle = deps.voiceNotes.handle(voiceCopyHandler({ paths: deps.paths, repo: guestbook.repo, onReady: (id) => guestbook.autoApprove(id) }));
  return {
    name: 'guestbook',
    publicApi: [publicGuestbookRouter(guestbook)],
    adminApi: [adminGuestbookRouter(guestbook)],
    stop: unhandle,
  };
}

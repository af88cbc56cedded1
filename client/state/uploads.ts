import { signal } from '@preact/signals-react';
import { toast } from '../components/ui/toast';
import { guestName, pickedChallenge } from './guest';
import { UploadEngine } from '../uploads/engine';
import { openUploadStore } from '../uploads/idb-store';
import { keepUploadsAlive } from '../uploads/keep-alive';
import type { BoxState, UploadItem } from '../uploads/types';
import { xhrTransport } from '../uploads/xhr';

/** The page's upload queue: one engine per page load, so one random session_id (SPEC §3). */
export const uploadEngine = new UploadEngine({
  transport: xhrTransport,
  notify: (n) => toast(n),
  uploaderName: () => guestName.peek(),
  challengeId: () => pickedChallenge.peek(),
});

export const uploadItems = signal<readonly UploadItem[]>(uploadEngine.items);
export const uploadBox = signal<BoxState>(uploadEngine.box);
let started = false;
/**
 * Called when the upload page opens: brings back the files an earlier page left unfinished (they
 * carry on by themselves) and keeps the phone awake while anything is on its way. Once per load.
 */
export function startUploadQueue(): void {
  if (started) return;
  started = true;
  keepUploadsAlive(uploadEngine);
  void openUploadStore().then((store) => uploadEngine.restore(store));
}

/** Bumped when a file finishes, so the insights card can refresh its numbers. */
export const finishedCount = signal(0);

uploadEngine.subscribe(() => {
  const done = uploadEngine.items.filter((i) => i.status === 'complete' || i.status === 'duplicate').length;
  if (done !== finishedCount.peek()) finishedCount.value = done;
  uploadItems.value = uploadEngine.items;
  uploadBox.value = uploadEngine.box;
});

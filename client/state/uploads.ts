import { signal } from '@preact/signals-react';
import { toast } from '../components/ui/toast';
import { UploadEngine } from '../uploads/engine';
import type { BoxState, UploadItem } from '../uploads/types';
import { xhrTransport } from '../uploads/xhr';

/** The page's upload queue: one engine per page load, so one random session_id (SPEC §3). */
export const uploadEngine = new UploadEngine({ transport: xhrTransport, notify: (n) => toast(n) });

export const uploadItems = signal<readonly UploadItem[]>(uploadEngine.items);
export const uploadBox = signal<BoxState>(uploadEngine.box);
/** Bumped when a file finishes, so the insights card can refresh its numbers. */
export const finishedCount = signal(0);

uploadEngine.subscribe(() => {
  const done = uploadEngine.items.filter((i) => i.status === 'complete' || i.status === 'duplicate').length;
  if (done !== finishedCount.peek()) finishedCount.value = done;
  uploadItems.value = uploadEngine.items;
  uploadBox.value = uploadEngine.box;
});

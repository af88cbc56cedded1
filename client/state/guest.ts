import { signal } from '@preact/signals-react';
import type { UPLOADER_NAME_MAX } from '../../common/rules';

/** The server's limit on a guest's name; typed by the shared rule, so the two cannot drift apart. */
export const NAME_MAX: typeof UPLOADER_NAME_MAX = 60;

/** Where the name is remembered on this device, so the guest types it once. */
const NAME_KEY = 'wedding.uploaderName';

function readName(): string {
  try {
    return globalThis.localStorage?.getItem(NAME_KEY) ?? '';
  } catch {
    // Private modes may refuse storage: the field then starts empty each visit.
    return '';
  }
}

/** The name the guest gave on the upload page ("" = anonymous); sent with every file. */
export const guestName = signal(readName().slice(0, NAME_MAX));

export function setGuestName(value: string): void {
  const name = value.slice(0, NAME_MAX);
  guestName.value = name;
  try {
    if (name.trim()) globalThis.localStorage?.setItem(NAME_KEY, name);
    else globalThis.localStorage?.removeItem(NAME_KEY);
  } catch {
    /* not remembered; still sent while the page is open */
  }
}

/** Where the picked photo challenge is remembered for this visit (a reload keeps it, a new visit starts without). */
const CHALLENGE_KEY = 'wedding.challenge';

function readChallenge(): string | null {
  try {
    return globalThis.sessionStorage?.getItem(CHALLENGE_KEY) || null;
  } catch {
    return null;
  }
}

/** The photo challenge the guest picked on the upload page (its id), or null: the files they add next count for it. */
export const pickedChallenge = signal<string | null>(readChallenge());

export function pickChallenge(id: string | null): void {
  pickedChallenge.value = id;
  try {
    if (id) globalThis.sessionStorage?.setItem(CHALLENGE_KEY, id);
    else globalThis.sessionStorage?.removeItem(CHALLENGE_KEY);
  } catch {
    /* kept while the page is open */
  }
}

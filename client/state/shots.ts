import { signal } from '@preact/signals-react';
import type { ShotsResponse } from '../../common/api-types';
import { getJson } from '../api/http';

/** The calling guest's shots under the couple's shot limit (null: not limited). */
export const shotsLeft = signal<number | null>(null);

/** Bumped when one of this guest's uploads is taken back: a shot comes back. */
export const shotsVersion = signal(0);

/** Asks the server how many shots this guest has left (a failure leaves the last answer). */
export async function refreshShots(): Promise<void> {
  try {
    const r = await getJson<ShotsResponse>('/api/my/shots');
    shotsLeft.value = r.shots_left;
  } catch {
    /* the count shows again with the next answer */
  }
}

import { SUCCESS_BANNER_MS } from './constants';
import type { BoxState, Timers, UploadItem } from './types';

const ACTIVE = new Set(['pending', 'uploading', 'retrying', 'uploaded', 'processing']);

/** The upload box's state (SPEC §4): idle, uploading, then success for SUCCESS_BANNER_MS. */
export class UploadBoxState {
  state: BoxState = 'idle';
  private successTimer: unknown = null;

  constructor(
    private readonly timers: Timers,
    /** Called when the success banner goes back to idle by itself. */
    private readonly changed: () => void,
  ) {}

  /** Whether any of `items` is still on its way. */
  static active(items: readonly UploadItem[]): boolean {
    return items.some((i) => ACTIVE.has(i.status));
  }

  set(state: BoxState): void {
    if (this.successTimer !== null) {
      this.timers.clearTimeout(this.successTimer);
      this.successTimer = null;
    }
    this.state = state;
    if (state === 'success') {
      this.successTimer = this.timers.setTimeout(() => {
        this.successTimer = null;
        this.state = 'idle';
        this.changed();
      }, SUCCESS_BANNER_MS);
    }
  }

  /**
   * Success once nothing is in flight and something succeeded. When everything failed there is
   * nothing to celebrate, and the box goes back to idle so new files can be dropped.
   */
  settle(items: readonly UploadItem[]): void {
    if (this.state !== 'uploading' || UploadBoxState.active(items)) return;
    const succeeded = items.some((i) => i.status === 'complete' || i.status === 'duplicate');
    this.set(succeeded ? 'success' : 'idle');
  }
}

import fs from 'node:fs';
import { log } from '../log.js';

/** Enough for many sign-ins and admin actions in the database's write-ahead log. */
export const RESERVE_BYTES = 2 * 1024 * 1024;

/**
 * A file of a few MiB kept in DATA_DIR. When another program fills the disk, removing it gives
 * the database room again, so sign-ins and the couple's actions keep working while uploads are
 * refused. It is written again once the disk has room. Synchronous on purpose: it runs rarely,
 * and the database's retry (see db/open.ts) needs the space back before it tries again.
 */
export class SpaceReserve {
  private heldNow = false;

  constructor(
    private readonly file: string,
    readonly bytes = RESERVE_BYTES,
  ) {
    this.heldNow = fs.statSync(file, { throwIfNoEntry: false })?.size === bytes;
  }

  get held(): boolean {
    return this.heldNow;
  }

  /** Writes the reserve (real blocks, not a sparse file); false when the disk has no room for it. */
  ensure(): boolean {
    if (this.heldNow) return true;
    try {
      fs.writeFileSync(this.file, Buffer.alloc(this.bytes), { mode: 0o600 });
      this.heldNow = true;
    } catch (e) {
      fs.rmSync(this.file, { force: true });
      log.warn('Could not write the disk space reserve', e);
    }
    return this.heldNow;
  }

  /** Frees the reserve; true when that gave space back. */
  release(): boolean {
    if (!this.heldNow) return false;
    this.heldNow = false;
    try {
      fs.rmSync(this.file, { force: true });
      log.warn('The disk is full: released the space reserve so the database keeps working; uploads are refused until there is room');
      return true;
    } catch (e) {
      log.error('Could not release the disk space reserve', e);
      return false;
    }
  }
}

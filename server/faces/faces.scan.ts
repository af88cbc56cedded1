import path from 'node:path';
import type { DataPaths, Originals } from '../context.js';
import { log } from '../log.js';
import { UnreadablePictureError, type FaceEngine } from './engine/face-engine.js';
import type { FacesRepo } from './faces.repo.js';
import { bestMatch } from './similarity.js';

interface GuestScan {
  code: Float32Array;
  /** Photos still to compare with this guest's code. */
  pending: Set<string>;
  total: number;
  scanned: number;
}

export interface ScanProgress {
  searching: boolean;
  scanned: number;
  total: number;
}

export interface ScanDeps {
  repo: FacesRepo;
  engine: FaceEngine;
  paths: DataPaths;
  /** Originals, fetched back from the couple's bucket when the local disk gave them up. */
  originals?: Originals;
}

/**
 * Goes through the gallery for every guest who asked, one picture per face worker at a time. A
 * picture is read once for all the guests waiting for it; each worker has its own queue and a
 * picture always goes to the same worker, whose memory may still hold its faces' codes.
 */
export class FaceScanner {
  private readonly guests = new Map<string, GuestScan>();
  /** Picture -> the guests waiting for it. */
  private readonly waiting = new Map<string, Set<string>>();
  private readonly queues: string[][];
  /** Per worker: pictures whose face boxes are measured ahead, when no guest's work is waiting. */
  private readonly ahead: string[][];
  private readonly aheadIds = new Set<string>();
  private readonly running: (Promise<void> | undefined)[];
  /** Bumped when everything is dropped: work that was under way then is thrown away. */
  private generation = 0;

  constructor(private readonly deps: ScanDeps) {
    this.queues = Array.from({ length: deps.engine.size }, () => []);
    this.ahead = Array.from({ length: deps.engine.size }, () => []);
    this.running = Array.from({ length: deps.engine.size }, () => undefined);
  }

  /** Starts (or restarts) a guest's scan over `photoIds`, in that order. */
  addGuest(guestId: string, code: Float32Array, photoIds: string[]): void {
    this.dropGuest(guestId);
    this.guests.set(guestId, { code, pending: new Set(photoIds), total: photoIds.length, scanned: 0 });
    for (const id of photoIds) this.enqueue(id, guestId, false);
    this.kick();
  }

  /** A guest whose scan finished before (after a restart): new photos are still compared with them. */
  addFinishedGuest(guestId: string, code: Float32Array, total: number): void {
    this.guests.set(guestId, { code, pending: new Set(), total, scanned: total });
  }

  /** A photo became visible: every guest who asked is compared with it, ahead of older work. */
  addPhoto(photoId: string): void {
    for (const [guestId, g] of this.guests) {
      if (g.pending.has(photoId)) continue;
      g.pending.add(photoId);
      g.total++;
      this.enqueue(photoId, guestId, true);
    }
    this.kick();
  }

  /**
   * Measures these pictures' face boxes while no guest waits, so a guest's scan later only
   * describes the faces (the detector is most of a first scan's work). Boxes are coordinates; no
   * face code is made.
   */
  prepare(photoIds: string[]): void {
    for (const id of photoIds) {
      if (this.aheadIds.has(id)) continue;
      this.aheadIds.add(id);
      this.ahead[slotOf(id, this.ahead.length)].push(id);
    }
    this.kick();
  }

  dropGuest(guestId: string): void {
    if (!this.guests.delete(guestId)) return;
    for (const set of this.waiting.values()) set.delete(guestId);
  }

  /** Forgets every guest and every queued picture. */
  dropAll(): void {
    this.generation++;
    this.guests.clear();
    this.waiting.clear();
    for (const q of [...this.queues, ...this.ahead]) q.length = 0;
    this.aheadIds.clear();
  }

  /** Pictures still to read for some guest, the guests still waiting (the dashboard's progress), and pictures still to measure ahead. */
  backlog(): { pictures: number; guests: number; ahead: number } {
    let guests = 0;
    for (const g of this.guests.values()) if (g.pending.size > 0) guests++;
    return { pictures: this.waiting.size, guests, ahead: this.aheadIds.size };
  }

  progress(guestId: string): ScanProgress | undefined {
    const g = this.guests.get(guestId);
    return g && { searching: g.pending.size > 0, scanned: g.scanned, total: g.total };
  }

  /** Resolves once no picture is queued or under way (tests and benchmarks wait on it). */
  async settled(): Promise<void> {
    while (this.running.some(Boolean)) await Promise.all(this.running);
  }

  private enqueue(photoId: string, guestId: string, first: boolean): void {
    let set = this.waiting.get(photoId);
    if (!set) {
      set = new Set();
      this.waiting.set(photoId, set);
      const q = this.queues[slotOf(photoId, this.queues.length)];
      if (first) q.unshift(photoId);
      else q.push(photoId);
    }
    set.add(guestId);
  }

  private kick(): void {
    this.queues.forEach((q, slot) => {
      if ((q.length || this.ahead[slot].length) && !this.running[slot]) {
        this.running[slot] = this.drain(slot).finally(() => {
          this.running[slot] = undefined;
          if (this.queues[slot].length || this.ahead[slot].length) this.kick();
        });
      }
    });
  }

  private async drain(slot: number): Promise<void> {
    const q = this.queues[slot];
    const ahead = this.ahead[slot];
    while (q.length || ahead.length) {
      if (!q.length) {
        await this.measureAhead(slot, ahead.shift()!);
        continue;
      }
      const photoId = q.shift()!;
      if (!this.waiting.get(photoId)?.size) {
        this.waiting.delete(photoId);
        continue;
      }
      const gen = this.generation;
      const codes = await this.read(slot, photoId).catch((e) => {
        if (e instanceof UnreadablePictureError) log.debug(`Face search skipped photo ${photoId}: ${e.message}`);
        else log.warn(`Face search could not read photo ${photoId}`, e);
        return [] as Float32Array[];
      });
      if (gen !== this.generation) return;
      await this.compare(photoId, codes).catch((e) => log.warn('Face search could not store matches', e));
    }
  }

  /** A picture's boxes, unless they are known, a guest's scan reads it anyway, or it is no longer visible. */
  private async measureAhead(slot: number, photoId: string): Promise<void> {
    this.aheadIds.delete(photoId);
    if (this.waiting.has(photoId)) return;
    try {
      const source = await this.sourceOf(photoId);
      if (!source || (await this.deps.repo.boxes(photoId, source))) return;
      const gen = this.generation;
      const boxes = await this.deps.engine.boxes(slot, await this.fileOf(photoId, source));
      if (gen === this.generation) await this.deps.repo.saveBoxes(photoId, source, boxes);
    } catch (e) {
      if (e instanceof UnreadablePictureError) log.debug(`Face search skipped photo ${photoId}: ${e.message}`);
      else log.warn(`Face search could not measure photo ${photoId}`, e);
    }
  }

  /** The file a visible still picture is read from: its display copy (1920 px, upright, whatever the original's format), or the original until that exists. */
  private async sourceOf(photoId: string): Promise<string | null> {
    const row = await this.deps.repo.scanPhoto(photoId);
    if (!row || row.is_visible !== 1 || !row.content_type.startsWith('image/')) return null;
    return row.display_path ?? (row.content_type === 'image/heic' || row.content_type === 'image/heif' ? null : row.stored_path);
  }

  /** Where `source` is read: the display copy as it is, the original once it is on the local disk (fetched back when it left). */
  private async fileOf(photoId: string, source: string): Promise<string> {
    const row = await this.deps.repo.scanPhoto(photoId);
    if (row && source === row.stored_path && this.deps.originals) return (await this.deps.originals.ensure(row)) ?? path.join(this.deps.paths.root, source);
    return path.join(this.deps.paths.root, source);
  }

  /** The codes of a photo's faces (none when guests may no longer see it). */
  private async read(slot: number, photoId: string): Promise<Float32Array[]> {
    const source = await this.sourceOf(photoId);
    if (!source) return [];
    const gen = this.generation;
    const boxes = await this.deps.repo.boxes(photoId, source);
    const answer = await this.deps.engine.picture(slot, source, await this.fileOf(photoId, source), boxes);
    if (answer.boxes && gen === this.generation) await this.deps.repo.saveBoxes(photoId, source, answer.boxes);
    return answer.codes;
  }

  private async compare(photoId: string, codes: Float32Array[]): Promise<void> {
    const guestIds = this.waiting.get(photoId) ?? new Set<string>();
    this.waiting.delete(photoId);
    const found: { guestId: string; photoId: string; distance: number }[] = [];
    const finished: string[] = [];
    for (const guestId of guestIds) {
      const g = this.guests.get(guestId);
      if (!g || !g.pending.delete(photoId)) continue;
      g.scanned++;
      const d = bestMatch(g.code, codes);
      if (d !== undefined) found.push({ guestId, photoId, distance: d });
      if (g.pending.size === 0) finished.push(guestId);
    }
    await this.deps.repo.saveMatches(found);
    for (const guestId of finished) if (this.guests.get(guestId)?.pending.size === 0) await this.deps.repo.markComplete(guestId);
  }
}

/** The same picture goes to the same worker every time. */
function slotOf(photoId: string, slots: number): number {
  let h = 0;
  for (let i = 0; i < photoId.length; i++) h = (h * 31 + photoId.charCodeAt(i)) | 0;
  return Math.abs(h) % slots;
}

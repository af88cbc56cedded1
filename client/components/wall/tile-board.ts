import type { GalleryItem } from '../../../common/api-types';
import type { Rotation } from './rotation';
import { isMessage, isVideo, type WallItem } from './types';

export interface Tile {
  /** New for every photo put on a tile, so React makes a fresh element (and the fade runs). */
  key: number;
  item: GalleryItem;
}

export interface BoardState {
  tiles: Tile[];
  /** Tile changes since the board started (the long-run check reads it). */
  shown: number;
}

export interface BoardOptions {
  rotation: Rotation;
  /** How long between changes. */
  intervalMs: number;
  /** "one": one tile changes at a time (mosaic); "all": every tile changes together (magazine). */
  mode: 'one' | 'all';
  preload(item: GalleryItem): Promise<void>;
}

const HISTORY = 20;
/** Videos playing on the board at once, at most: each holds a decoder (a TV's memory is small). */
export const MAX_TILE_VIDEOS = 2;
/** What a tile can show: a photo with its display image, a video with its web copy and its still (no message). */
const fitsTile = (i: WallItem): i is GalleryItem => !isMessage(i) && !!i.backblaze_url && (!isVideo(i) || !!i.thumbnail_url);

/**
 * The mosaic and magazine layouts: `size` tiles filled from the wall's rotation (photos, and
 * videos with their still: at most MAX_TILE_VIDEOS at once; messages play in the single layout),
 * changed on a timer after their pictures (a video's still) have loaded, so no tile is ever blank
 * while there are photos. A photo that is hidden leaves its tile at once. Bounded: the tiles and a
 * short history for "previous".
 */
export class TileBoard {
  private state: BoardState = { tiles: [], shown: 0 };
  private listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private key = 0;
  private turn = 0;
  private gen = 0;
  private disposed = false;
  private history: Tile[][] = [];

  constructor(
    private readonly opts: BoardOptions,
    private size: number,
  ) {}

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  getState = (): BoardState => this.state;

  start(): void {
    void this.fill();
  }

  /** The screen's shape changed the number of tiles. */
  resize(size: number): void {
    if (size === this.size) return;
    this.size = size;
    const tiles = this.state.tiles.slice(0, size);
    this.set({ ...this.state, tiles });
    void this.fill();
  }

  /** The remote's "next": the next change now. */
  next(): void {
    void this.step();
  }

  /** The remote's "previous": the tiles as they were before the last change. */
  previous(): void {
    const before = this.history.pop();
    if (!before) return;
    const tiles = before.filter((t) => this.opts.rotation.has(t.item.id)).slice(0, this.size);
    this.gen++;
    this.set({ ...this.state, tiles: tiles.map((t) => ({ key: ++this.key, item: t.item })) });
    void this.fill();
  }

  /** The list changed (a first load, a refresh, an arrival): empty tiles are filled. */
  refresh(): void {
    const tiles = this.state.tiles.filter((t) => this.opts.rotation.has(t.item.id));
    if (tiles.length !== this.state.tiles.length) this.set({ ...this.state, tiles });
    if (tiles.length < this.size) void this.fill();
  }

  /** A hidden photo leaves its tile at once, replaced without waiting for the next change. */
  remove(id: string): void {
    const at = this.state.tiles.findIndex((t) => t.item.id === id);
    if (at < 0) return;
    const tiles = [...this.state.tiles];
    const item = this.pick(new Set(tiles.map((t) => t.item.id)), this.videosOn(tiles, new Set([at])));
    if (item) tiles[at] = { key: ++this.key, item };
    else tiles.splice(at, 1);
    this.set({ ...this.state, tiles });
  }

  dispose(): void {
    this.disposed = true;
    this.gen++;
    clearTimeout(this.timer);
    this.listeners.clear();
  }

  /**
   * The next photo or video from the rotation that is not on a tile yet (`videos`: how many the
   * board would hold besides it); one that is, when there are fewer photos than tiles.
   */
  private pick(onBoard: Set<string>, videos: number): GalleryItem | null {
    const r = this.opts.rotation;
    let fallback: GalleryItem | null = null;
    for (let i = 0; i < r.size + r.queued; i++) {
      const item = r.next();
      if (!item) return null;
      if (!fitsTile(item) || (isVideo(item) && videos >= MAX_TILE_VIDEOS)) continue;
      if (!onBoard.has(item.id)) return item;
      fallback ??= item;
    }
    return fallback;
  }

  /** The videos on `tiles`, leaving out the places in `except`. */
  private videosOn(tiles: readonly Tile[], except: ReadonlySet<number> = new Set()): number {
    return tiles.filter((t, i) => !except.has(i) && isVideo(t.item)).length;
  }

  private async load(items: GalleryItem[]): Promise<GalleryItem[]> {
    const loaded = await Promise.all(items.map((i) => this.opts.preload(i).then(() => i, () => null)));
    return loaded.filter((i): i is GalleryItem => i !== null);
  }

  /** Empty tiles get photos (all loaded first, shown together). */
  private async fill(): Promise<void> {
    const gen = ++this.gen;
    clearTimeout(this.timer);
    const want = this.size - this.state.tiles.length;
    const onBoard = new Set(this.state.tiles.map((t) => t.item.id));
    const picked: GalleryItem[] = [];
    let videos = this.videosOn(this.state.tiles);
    for (let i = 0; i < want; i++) {
      const item = this.pick(onBoard, videos);
      if (item && isVideo(item)) videos++;
      if (!item) break;
      onBoard.add(item.id);
      picked.push(item);
    }
    const loaded = await this.load(picked);
    if (gen !== this.gen || this.disposed) return;
    const tiles = [...this.state.tiles, ...loaded.map((item) => ({ key: ++this.key, item }))].slice(0, this.size);
    this.set({ tiles, shown: this.state.shown + loaded.length });
    this.schedule();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    if (this.disposed) return;
    this.timer = setTimeout(() => void this.step(), this.opts.intervalMs);
  }

  /** One tile (mosaic, in turn) or all of them (magazine) change, once their new photos have loaded. */
  private async step(): Promise<void> {
    const gen = ++this.gen;
    clearTimeout(this.timer);
    const tiles = this.state.tiles;
    if (tiles.length < this.size) return this.fill();
    const onBoard = new Set(tiles.map((t) => t.item.id));
    const spots = this.opts.mode === 'all' ? tiles.map((_, i) => i) : [this.turn++ % tiles.length];
    const picked: [number, GalleryItem][] = [];
    let videos = this.videosOn(tiles, new Set(spots));
    for (const at of spots) {
      const item = this.pick(onBoard, videos);
      if (item && isVideo(item)) videos++;
      if (!item) break;
      onBoard.add(item.id);
      picked.push([at, item]);
    }
    const loaded = new Set(await this.load(picked.map(([, i]) => i)));
    if (gen !== this.gen || this.disposed) return;
    const next = [...this.state.tiles];
    let changed = 0;
    for (const [at, item] of picked) {
      if (!loaded.has(item) || at >= next.length || next[at].item.id === item.id) continue;
      next[at] = { key: ++this.key, item };
      changed++;
    }
    if (changed) {
      this.history.push(this.state.tiles);
      if (this.history.length > HISTORY) this.history.shift();
      this.set({ tiles: next, shown: this.state.shown + changed });
    }
    this.schedule();
  }

  private set(next: BoardState): void {
    this.state = next;
    for (const fn of this.listeners) fn();
  }
}

// Plain geometry of the face search: tiles, merging detections, and the scale boxes are kept in.

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Tile {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Squares of `size` covering a `width` x `height` picture, spread evenly so neighbours overlap by
 * at least `overlap` pixels: a face cut by one tile's edge is whole in the next one.
 */
export function tilesFor(width: number, height: number, size: number, overlap: number): Tile[] {
  const count = (n: number) => tileCount(n, size, overlap);
  const cols = count(width);
  const rows = count(height);
  const at = (i: number, n: number, total: number) => (n === 1 ? 0 : Math.round((i * (total - size)) / (n - 1)));
  const tiles: Tile[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      tiles.push({ x: at(c, cols, width), y: at(r, rows, height), width: Math.min(size, width), height: Math.min(size, height) });
    }
  }
  return tiles;
}

const tileCount = (n: number, size: number, overlap: number) => (n <= size ? 1 : Math.ceil((n - overlap) / (size - overlap)));

/**
 * How much to shrink a `width` x `height` picture (1 or a little less, never below `slack`) so its
 * tiles need a row or a column fewer. A 1344x1008 picture needs 3x3 tiles of 512 (the rows
 * overlapping by 264 px: wasted work); at 1280x960 it needs 3x2, and its faces lose 5% of their
 * width.
 */
export function fitToTiles(width: number, height: number, size: number, overlap: number, slack = 0.9): number {
  let scale = 1;
  for (const side of [width, height]) {
    const fewer = tileCount(side, size, overlap) - 1;
    if (fewer < 1) continue;
    const k = (fewer * size - (fewer - 1) * overlap) / side;
    if (k >= slack) scale = Math.min(scale, k);
  }
  return scale;
}

export function overlapRatio(a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / (a.width * a.height + b.width * b.height - inter);
}

/** One face seen by two tiles or two levels: they overlap, or one's centre is in the other and the sizes agree. */
function sameFace(a: Box, b: Box): boolean {
  if (overlapRatio(a, b) > 0.3) return true;
  const cx = b.x + b.width / 2;
  const cy = b.y + b.height / 2;
  const inside = cx > a.x && cx < a.x + a.width && cy > a.y && cy < a.y + a.height;
  return inside && b.width < a.width * 1.6 && a.width < b.width * 1.6;
}

/** Keeps the best-scored box of each face (greedy non-maximum suppression). */
export function mergeDetections<T extends Box & { score: number }>(found: T[]): T[] {
  const sorted = [...found].sort((a, b) => b.score - a.score);
  const kept: T[] = [];
  for (const d of sorted) if (!kept.some((k) => sameFace(k, d))) kept.push(d);
  return kept;
}

/** Boxes are stored relative to the picture (0-1), so they hold whatever size it is decoded at. */
export function toRelative(b: Box, width: number, height: number): Box {
  const r = (v: number) => Math.round(v * 10_000) / 10_000;
  return { x: r(b.x / width), y: r(b.y / height), width: r(b.width / width), height: r(b.height / height) };
}

export function toPixels(b: Box, width: number, height: number): Box {
  return { x: b.x * width, y: b.y * height, width: b.width * width, height: b.height * height };
}

/** The largest box (a selfie with a friend behind: the guest is the nearest face). */
export function largest<T extends Box>(boxes: T[]): T | undefined {
  return boxes.reduce<T | undefined>((best, b) => (!best || b.width * b.height > best.width * best.height ? b : best), undefined);
}

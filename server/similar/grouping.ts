/**
 * Similar shots: images taken within two minutes of each other whose perceptual hashes differ
 * in few bits (bursts, five guests on the same kiss). A group is a connected set of such pairs,
 * so the order photos arrive in never changes which photos end up together. The values are
 * tuned by scripts/bench/album-tune.ts (docs/features.md "Similar shots and quality flags").
 */

/** Taken at most this far apart. */
export const SIMILAR_WITHIN_MS = 2 * 60 * 1000;
/** dHash bits (of 64) that may differ. */
export const SIMILAR_MAX_BITS = 10;

export interface Shot {
  id: string;
  /** Epoch ms taken (else uploaded). */
  at: number;
  /** dHash, 16 hex digits. */
  hash: string;
}

function popcount32(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

const halves = (hash: string): [number, number] => [parseInt(hash.slice(0, 8), 16) | 0, parseInt(hash.slice(8, 16), 16) | 0];

/** Bits that differ between two dHashes. */
export function bitsApart(a: string, b: string): number {
  const [a1, a2] = halves(a);
  const [b1, b2] = halves(b);
  return popcount32(a1 ^ b1) + popcount32(a2 ^ b2);
}

export function isSimilar(a: Shot, b: Shot, maxBits = SIMILAR_MAX_BITS, withinMs = SIMILAR_WITHIN_MS): boolean {
  return Math.abs(a.at - b.at) <= withinMs && bitsApart(a.hash, b.hash) <= maxBits;
}

/**
 * Groups shots: each photo of a group of two or more maps to the group's id (the id of its
 * earliest shot); photos alone are left out. Sorted by time, each shot is compared with the
 * shots of the two minutes before it only.
 */
export function groupShots(shots: readonly Shot[], maxBits = SIMILAR_MAX_BITS, withinMs = SIMILAR_WITHIN_MS): Map<string, string> {
  const sorted = [...shots].sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
  const parent = sorted.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const h = sorted.map((s) => halves(s.hash));
  let start = 0;
  for (let i = 0; i < sorted.length; i++) {
    while (sorted[i].at - sorted[start].at > withinMs) start++;
    for (let j = start; j < i; j++) {
      if (popcount32(h[i][0] ^ h[j][0]) + popcount32(h[i][1] ^ h[j][1]) > maxBits) continue;
      const [a, b] = [find(i), find(j)];
      // The earlier shot's root stays the root: a group is named after its first photo.
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  }
  const size = new Map<number, number>();
  for (let i = 0; i < sorted.length; i++) size.set(find(i), (size.get(find(i)) ?? 0) + 1);
  const out = new Map<string, string>();
  for (let i = 0; i < sorted.length; i++) {
    const root = find(i);
    if ((size.get(root) ?? 0) > 1) out.set(sorted[i].id, sorted[root].id);
  }
  return out;
}

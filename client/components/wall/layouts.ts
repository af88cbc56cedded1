import type { WallLayout } from '../../../common/api-types';

/** The layout on screen: `cycle` goes through the three in turn. */
export type ShownLayout = Exclude<WallLayout, 'cycle'>;
export const CYCLE: readonly ShownLayout[] = ['single', 'mosaic', 'magazine'];

/**
 * Photo tiles per layout and screen shape; one more cell holds the QR code and the address.
 * 16:9: a 4x3 mosaic, a magazine of one large photo and three small ones; 4:3 (and taller): 3x3, and two small.
 */
export function tilesFor(layout: ShownLayout, narrow: boolean): number {
  if (layout === 'mosaic') return narrow ? 8 : 11;
  if (layout === 'magazine') return narrow ? 3 : 4;
  return 0;
}

/** The layout shown `elapsedMs` after a cycle started, each up for `eachMs`. */
export function cycleAt(elapsedMs: number, eachMs: number): ShownLayout {
  return CYCLE[Math.floor(Math.max(0, elapsedMs) / eachMs) % CYCLE.length];
}

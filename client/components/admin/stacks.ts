import type { AdminPhoto } from '../../../common/api-types';

/** One card of the approval queue: a photo alone, or a stack of similar shots with the best in front. */
export interface Stack {
  lead: AdminPhoto;
  others: AdminPhoto[];
}

/** Best first: the fewest quality flags, then the sharpest (unmeasured last). */
const better = (a: AdminPhoto, b: AdminPhoto) => a.quality_flags.length - b.quality_flags.length || (b.sharpness ?? -1) - (a.sharpness ?? -1);

/**
 * The queue's photos as cards: each group of similar shots becomes one stack at the place of
 * its first photo. `front`: a photo the couple brought to the front of its stack.
 */
export function stacksOf(photos: readonly AdminPhoto[], front: ReadonlySet<string> = new Set()): Stack[] {
  const groups = new Map<string, AdminPhoto[]>();
  const order: (AdminPhoto | string)[] = [];
  for (const p of photos) {
    if (!p.similar_group) order.push(p);
    else if (groups.has(p.similar_group)) groups.get(p.similar_group)!.push(p);
    else {
      groups.set(p.similar_group, [p]);
      order.push(p.similar_group);
    }
  }
  return order.map((o) => {
    if (typeof o !== 'string') return { lead: o, others: [] };
    const all = [...groups.get(o)!].sort((a, b) => Number(front.has(b.id)) - Number(front.has(a.id)) || better(a, b));
    return { lead: all[0], others: all.slice(1) };
  });
}

import fs from 'node:fs';
import os from 'node:os';
import { log } from '../log.js';

/** Nice value of libvips' threads: below requests, still all the idle CPU. */
export const BACKGROUND_NICE = 5;
const SCAN_MS = 1000;
const TASKS = '/proc/self/task';

let watching = false;
const lowered = new Set<number>();

/**
 * Keeps libvips' worker threads (where sharp decodes, resizes and encodes) at a lower CPU
 * priority than the thread answering requests. On a small machine a processing backlog would
 * otherwise take the cores in equal shares with the event loop, and every gallery read waited its
 * turn behind thumbnails being made. Linux keeps a nice value per thread, so this lowers exactly
 * those threads (found by the name libvips gives them) and nothing else; processing still uses
 * every core nobody else wants. Elsewhere (no /proc) it does nothing.
 */
export function lowerImageThreadsPriority(): void {
  if (watching || process.platform !== 'linux') return;
  watching = true;
  const timer = setInterval(scan, SCAN_MS);
  timer.unref();
}

/** Lowers any libvips worker not seen yet (libvips reuses its threads, so new ones are few). */
export function scan(): number {
  let tids: string[];
  try {
    tids = fs.readdirSync(TASKS);
  } catch {
    return 0;
  }
  const alive = new Set<number>();
  let changed = 0;
  for (const t of tids) {
    const tid = Number(t);
    alive.add(tid);
    if (lowered.has(tid)) continue;
    let name = '';
    try {
      name = fs.readFileSync(`${TASKS}/${t}/comm`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    if (!name.startsWith('libvips')) continue;
    try {
      os.setPriority(tid, BACKGROUND_NICE);
      lowered.add(tid);
      changed++;
    } catch (e) {
      log.debug(`Could not lower the priority of thread ${tid}`, e);
      lowered.add(tid);
    }
  }
  for (const tid of lowered) if (!alive.has(tid)) lowered.delete(tid);
  return changed;
}

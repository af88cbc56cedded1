import fs from 'node:fs';
import path from 'node:path';
import type { DataPaths } from '../context.js';
import type { PhotoRow } from '../db/schema.js';
import { log } from '../log.js';

/** A path stored relative to DATA_DIR, resolved; null when it would leave DATA_DIR. */
export function resolveStored(paths: DataPaths, rel: string | null): string | null {
  if (!rel) return null;
  const abs = path.resolve(paths.root, rel);
  const root = path.resolve(paths.root) + path.sep;
  return abs.startsWith(root) ? abs : null;
}

/**
 * Removes a photo's original and every derivative; failures are logged, never thrown. True when
 * every one of them is gone.
 */
export async function removePhotoFiles(paths: DataPaths, row: Pick<PhotoRow, 'id' | 'stored_path' | 'thumb_path' | 'display_path'>): Promise<boolean> {
  const targets = new Set<string>();
  for (const rel of [row.stored_path, row.thumb_path, row.display_path]) {
    const abs = resolveStored(paths, rel);
    if (abs) targets.add(abs);
  }
  const derivedDir = path.join(paths.derived, row.id);
  if (path.dirname(derivedDir) === path.resolve(paths.derived)) targets.add(derivedDir);
  const done = await Promise.all(
    [...targets].map((t) =>
      fs.promises.rm(t, { recursive: true, force: true }).then(
        () => true,
        (err) => {
          log.error(`Could not remove ${t}`, err);
          return false;
        },
      ),
    ),
  );
  return done.every(Boolean);
}

import fs from 'node:fs/promises';
import path from 'node:path';
import type { DataPaths } from '../context.js';

/**
 * Deletes every derivative in the photo's folder except those of `keepVersion` and the file the
 * row still points at (`alsoKeep`: a video's earlier web copy stays until its re-encode is done).
 */
export async function removeOldVersions(paths: DataPaths, photoId: string, keepVersion: number, alsoKeep?: string | null): Promise<void> {
  const dir = path.join(paths.derived, photoId);
  const kept = alsoKeep ? path.basename(alsoKeep) : null;
  for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
    if (!name.includes(`-v${keepVersion}.`) && name !== kept) await fs.rm(path.join(dir, name), { force: true, recursive: true });
  }
}

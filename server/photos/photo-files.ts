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

/** Removes a photo's original and every derivative; failures are logged, never thrown. */
export async function removePhotoFiles(paths: DataPaths, row: PhotoRow): Promise<void> {
  const targets = new Set<string>();
  for (const rel of [row.stored_path, row.thumb_path, row.display_path]) {
    const abs = resolveStored(paths, rel);
    if (abs) targets.add(abs);
  }
  const derivedDir = path.join(paths.derived, row.id);
  if (path.dirname(derivedDir) === path.resolve(paths.derived)) targets.add(derivedDir);
  await Promise.all(
    [...targets].map((t) =>
      fs.promises.rm(t, { recursive: true, force: true }).catch((err) => log.error(`Could not remove ${t}`, err)),
    ),
  );
}

/**
 * Bytes on disk under the media folders (originals, derivatives, partial uploads). A walk costs a
 * stat per file, so the total is kept and walked again only when the stored media changed (the
 * caller's cheap signature of the photos and uploads tables differs) or after a minute, so a
 * delete or a new upload shows on the next dashboard load.
 */
export class DiskUsage {
  private cached: { at: number; bytes: number; signature: string } | undefined;
  private pending: Promise<number> | undefined;

  constructor(
    private readonly paths: DataPaths,
    private readonly signature: () => Promise<string>,
    private readonly ttlMs = 60_000,
  ) {}

  invalidate(): void {
    this.cached = undefined;
  }

  async used(): Promise<number> {
    const signature = await this.signature();
    const c = this.cached;
    if (c && c.signature === signature && Date.now() - c.at < this.ttlMs) return c.bytes;
    this.pending ??= (async () => {
      try {
        const parts = await Promise.all([this.paths.originals, this.paths.derived, this.paths.incoming].map(folderBytes));
        const bytes = parts.reduce((a, b) => a + b, 0);
        this.cached = { at: Date.now(), bytes, signature };
        return bytes;
      } finally {
        this.pending = undefined;
      }
    })();
    return this.pending;
  }

  /** STORAGE_LIMIT_GB, else the size of the filesystem holding DATA_DIR; null when unknown. */
  async limit(configured: number | undefined): Promise<number | null> {
    if (configured !== undefined) return configured;
    try {
      const s = await fs.promises.statfs(this.paths.root);
      return s.blocks * s.bsize;
    } catch {
      return null;
    }
  }
}

async function folderBytes(dir: string): Promise<number> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  let total = 0;
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += await folderBytes(p);
    else if (e.isFile()) {
      try {
        total += (await fs.promises.stat(p)).size;
      } catch {
        /* removed while walking */
      }
    }
  }
  return total;
}

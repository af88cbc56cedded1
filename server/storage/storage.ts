import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DataPaths } from '../context.js';
import { DiskUsage } from '../dashboard/disk-usage.js';
import { MediaBytesRepo } from '../dashboard/media-bytes.repo.js';
import { retryWhenDiskFull, type Sqlite } from '../db/open.js';
import type { DB } from '../db/schema.js';
import type { DatabaseWriter } from '../db/writer.js';
import { SpaceReserve } from './space-reserve.js';
import { StorageGuard } from './storage-guard.js';

export { StorageGuard, storageFull, isDiskFull, NO_ROOM, type RoomMeter } from './storage-guard.js';

/**
 * The storage limits uploads are held to, and the space reserve the database falls back on when
 * the disk fills (its file is DATA_DIR/space-reserve). Stored media are counted by the DiskUsage
 * returned beside it, the one the dashboard shows, so the limit and the dashboard never disagree.
 */
export function createStorageGuard(d: { config: Config; paths: DataPaths; db: Kysely<DB>; sqlite: Sqlite; writer?: DatabaseWriter; onRefused?: () => void }): {
  storage: StorageGuard;
  disk: DiskUsage;
} {
  const reserve = new SpaceReserve(path.join(d.paths.root, 'space-reserve'));
  const s = fs.statfsSync(d.paths.root);
  if (s.bavail * s.bsize >= 2 * reserve.bytes) reserve.ensure();
  if (d.writer) d.writer.freeSpace = () => reserve.release();
  else retryWhenDiskFull(d.sqlite, () => reserve.release());
  const disk = new DiskUsage(d.paths, new MediaBytesRepo(d.db));
  const storage = new StorageGuard({
    root: d.paths.root,
    limitBytes: d.config.storageLimitBytes,
    minFreeBytes: d.config.minFreeBytes,
    used: () => disk.used(),
    reserve,
    onRefused: d.onRefused,
  });
  return { storage, disk };
}

import { AppError } from '../errors.js';
import type { StorageGuard } from '../storage/storage.js';
import type { ChunkFields } from './chunk-fields.js';
import type { UploadsRepo } from './uploads.repo.js';

/**
 * Unfinished chunked uploads one upload session, and one client address, may hold open. The
 * address cap is high because every guest on a venue's Wi-Fi may share one address.
 */
export const OPEN_PER_SESSION = 20;
export const OPEN_PER_CLIENT = 1000;
/** Seconds a client refused for too many unfinished uploads waits before trying again. */
const CAP_RETRY_AFTER_S = 30;

const tooManyOpen = () =>
  new AppError('rate_limited', 'errors.uploads.too_many_open', undefined, { retry_after: CAP_RETRY_AFTER_S });

/**
 * Whether a new chunked upload may start: within the caps on unfinished uploads (rate_limited),
 * and with room for its whole total_size (storage_full). Nothing is stored before this passes.
 */
export async function admitNewUpload(repo: UploadsRepo, storage: StorageGuard, f: ChunkFields, clientAddress: string): Promise<void> {
  const open = await repo.countOpen(f.sessionId, clientAddress);
  if (open.session >= OPEN_PER_SESSION || open.client >= OPEN_PER_CLIENT) throw tooManyOpen();
  await storage.admit(f.totalSize);
}

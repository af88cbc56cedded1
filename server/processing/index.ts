import type { Shared } from '../area.js';

/**
 * The processing side of media (owned by the uploads/processing area): a job queue persisted
 * in SQLite that reads metadata and writes derivatives, plus the operations admins trigger.
 */
export interface Processing {
  /** Queue metadata + derivative work for a newly stored photo (idempotent per photo). */
  enqueue(photoId: string): Promise<void>;
  /** Rotate clockwise by 90/180/270: originals displayed rotated, derivatives rebuilt, width/height swapped. */
  rotate(photoId: string, degrees: 90 | 180 | 270): Promise<void>;
  /** Rebuild one photo's derivatives now; rejects with a readable Error when it cannot. */
  regenerate(photoId: string): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

export function createProcessing(_shared: Omit<Shared, 'processing'>): Processing {
  // Placeholder until the processing area lands.
  return {
    enqueue: async () => {},
    rotate: async () => {
      throw new Error('Rotation is not available yet');
    },
    regenerate: async () => {
      throw new Error('Thumbnail regeneration is not available yet');
    },
    start: () => {},
    stop: async () => {},
  };
}

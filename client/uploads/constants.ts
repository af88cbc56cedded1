/** SPEC §9: the business constants the upload engine runs on. */
export const CHUNK_SIZE = 5 * 1024 * 1024; // 5,242,880 bytes: also the single-request threshold
export const MAX_CONCURRENT = 3;
export const REQUEST_TIMEOUT_MS = 120_000;
export const MAX_RETRIES = 5;
export const RETRY_BASE_MS = 2000;
export const RETRY_FACTOR = 1.5;
export const FIRST_POLL_MS = 1000;
export const POLL_INTERVAL_MS = 1500;
export const MAX_POLLS = 120;
export const SUCCESS_BANNER_MS = 3000;
/** A 409 answer moves the client back to the server's offset; this bounds a server that keeps refusing. */
export const MAX_CONFLICTS_IN_A_ROW = 5;
/** Times a file asks for its turn to send (each ask waits up to 20 s) before it goes without one. */
export const MAX_TURN_ASKS = 30;
/** The longest Retry-After the client honours; a longer one is cut to this. */
export const MAX_RETRY_AFTER_MS = 10 * 60_000;

/**
 * SPEC §5: what the drop zone accepts (react-dropzone `accept` shape), plus every phone's formats:
 * HEIC/HEIF from iPhones, AVIF, WebM and M4V. Its "File type must be ..." refusal lists these.
 */
export const ACCEPT: Record<string, string[]> = {
  'image/jpeg': ['.jpeg', '.jpg'],
  'image/png': ['.png'],
  'image/gif': ['.gif'],
  'image/webp': ['.webp'],
  'image/heic': ['.heic'],
  'image/heif': ['.heif'],
  'image/avif': ['.avif'],
  'video/mp4': ['.mp4'],
  'video/quicktime': ['.mov', '.quicktime'],
  'video/x-msvideo': ['.avi'],
  'video/webm': ['.webm'],
  'video/x-m4v': ['.m4v'],
};

/** Delay before retry number `attempt` (0-based): 2000, 3000, 4500, 6750, 10125 ms. */
export function retryDelay(attempt: number): number {
  return RETRY_BASE_MS * RETRY_FACTOR ** attempt;
}

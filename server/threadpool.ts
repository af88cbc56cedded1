import os from 'node:os';

/**
 * libuv's thread pool (4 threads unless UV_THREADPOOL_SIZE says otherwise) runs every file read
 * and write of the server and argon2 hashing, first come first served (image work runs in the
 * media worker's process). Under an upload rush dozens of uploads write at once; a write the disk
 * holds up keeps its thread, and with 4 threads a thumbnail read or a sign-in waits behind them.
 * A larger pool lets short work run beside the writes. libuv reads the
 * variable once, when the pool starts, and Node starts it while loading an ES module entry, so
 * setting it here would be too late: the image (Dockerfile) and `npm run serve` set it, and the
 * server says so when it is missing.
 */
export const RECOMMENDED_THREAD_POOL = Math.max(16, 4 * os.availableParallelism());

/** A warning for the log when the pool was left at libuv's default; null when it is set. */
export function threadPoolAdvice(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.UV_THREADPOOL_SIZE) return null;
  return `UV_THREADPOOL_SIZE is not set: file reads wait behind upload writes under load. Start the server with UV_THREADPOOL_SIZE=${RECOMMENDED_THREAD_POOL} (the Docker image does).`;
}

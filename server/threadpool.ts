import os from 'node:os';

/**
 * libuv's thread pool (4 threads unless UV_THREADPOOL_SIZE says otherwise) runs every file read
 * and write, sharp's image work and argon2 hashing, first come first served. A processing job
 * keeps up to three of them busy for hundreds of milliseconds (decode, then two encodes), so under
 * an upload rush thumbnails and upload writes waited behind them for seconds. A larger pool lets
 * short file work run beside the long jobs (the kernel still shares the cores). libuv reads the
 * variable once, when the pool starts, and Node starts it while loading an ES module entry, so
 * setting it here would be too late: the image (Dockerfile) and `npm run serve` set it, and the
 * server says so when it is missing.
 */
export const RECOMMENDED_THREAD_POOL = Math.max(16, 4 * os.availableParallelism());

/** A warning for the log when the pool was left at libuv's default; null when it is set. */
export function threadPoolAdvice(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.UV_THREADPOOL_SIZE) return null;
  return `UV_THREADPOOL_SIZE is not set: file reads wait behind photo processing under load. Start the server with UV_THREADPOOL_SIZE=${RECOMMENDED_THREAD_POOL} (the Docker image does).`;
}

// The media worker: a child process the server starts at a lower CPU priority, where every
// piece of processing that takes CPU runs (sharp, exifr, ffmpeg, heif-convert). The server's own
// process then only answers requests: a backlog of photos cannot take its thread pool, its
// event loop (spawning a tool from a large process blocks it) or its share of the cores.
// Protocol: server/processing/worker-protocol.ts.
import { buildDerivatives, encodeWebCopy, type MediaDeps } from './processing/media.js';
import { rotateOriginal } from './processing/rotate.js';
import { configureSharp } from './processing/sharp.js';
import { sendableError, type FromWorker, type ToWorker, type WorkerRequest } from './processing/worker-protocol.js';
import { log } from './log.js';

let deps: MediaDeps | undefined;
const running = new Map<number, AbortController>();

const send = (m: FromWorker) => {
  if (process.connected) process.send!(m);
};

async function run(req: WorkerRequest, deps: MediaDeps): Promise<void> {
  const abort = new AbortController();
  running.set(req.id, abort);
  try {
    const value =
      req.op === 'derivatives'
        ? await buildDerivatives(deps, req.photo)
        : req.op === 'webCopy'
          ? await encodeWebCopy(deps, req.photo, abort.signal)
          : await rotateOriginal(deps.paths, req.photo, req.degrees ?? 90);
    send({ type: 'done', id: req.id, value });
  } catch (e) {
    send({ type: 'failed', id: req.id, error: sendableError(e, abort.signal.aborted) });
  } finally {
    running.delete(req.id);
  }
}

/** Kills every tool under way (their spawn carries the signal) and leaves. */
function leave(): void {
  for (const abort of running.values()) abort.abort();
  setTimeout(() => process.exit(0), 200).unref();
}

process.on('message', (m: ToWorker) => {
  switch (m.type) {
    case 'setup':
      deps = { paths: m.paths, tools: m.tools };
      configureSharp(m.jobsAtOnce);
      send({ type: 'ready' });
      return;
    case 'run':
      if (!deps) return send({ type: 'failed', id: m.id, error: { kind: 'other', message: 'The media worker was not set up.' } });
      void run(m, deps);
      return;
    case 'cancel':
      running.get(m.id)?.abort();
      return;
    case 'stop':
      leave();
      return;
  }
});
// The server went away (stopped, or killed): no tool it started may run on without it.
process.on('disconnect', leave);
// Ctrl-C reaches the whole process group; the server decides when the worker stops, after the
// jobs under way have finished.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);
process.on('uncaughtException', (e) => {
  log.error('The media worker failed', e);
  process.exit(1);
});

// The media worker: a child process the server starts at a lower CPU priority, where every
// piece of processing that takes CPU runs (sharp, exifr, ffmpeg, heif-convert). The server's own
// process then only answers requests: a backlog of photos cannot take its thread pool, its
// event loop (spawning a tool from a large process blocks it) or its share of the cores.
// Protocol: server/processing/worker-protocol.ts.
import { probeAudio, writeAudioWebCopy } from './processing/audio.js';
import type { Pausable } from './processing/ffmpeg.js';
import { StepTimeoutError } from './processing/limits.js';
import { buildDerivatives, encodeWebCopy, measureStored, type MediaDeps } from './processing/media.js';
import { rotateOriginal } from './processing/rotate.js';
import { configureSharp } from './processing/sharp.js';
import { sendableError, WORKER_HEARTBEAT_MS, type FromWorker, type ToWorker, type WorkerAudioRequest, type WorkerKeepsakeRequest, type WorkerRequest } from './processing/worker-protocol.js';
import { log } from './log.js';
import { makeBook } from './keepsakes/book.js';
import { makeFilm } from './keepsakes/film.js';
import type { MakeControl } from './processing/keepsake-plan.js';

let deps: MediaDeps | undefined;

interface Running {
  abort: AbortController;
  /** The operation's running tool, once there is one (a web copy's encoder). */
  tool?: Pausable;
  /** Asked to pause before its tool started: it starts paused. */
  paused: boolean;
}
const running = new Map<number, Running>();
let leaving = false;

const send = (m: FromWorker) => {
  if (process.connected) process.send!(m);
};

async function run(req: WorkerRequest | WorkerAudioRequest | WorkerKeepsakeRequest, deps: MediaDeps): Promise<void> {
  const op: Running = { abort: new AbortController(), paused: false };
  running.set(req.id, op);
  try {
    const value = req.type === 'run-audio' ? await runAudio(req, deps, op.abort.signal) : req.type === 'run-keepsake' ? await runKeepsake(req, op) : await runMedia(req, deps, op);
    send({ type: 'done', id: req.id, value });
  } catch (e) {
    if (leaving) return; // answered already (see replace)
    send({ type: 'failed', id: req.id, error: sendableError(e, op.abort.signal.aborted) });
    // sharp or exifr ran past its limit: that work may still hold this process's threads.
    if (e instanceof StepTimeoutError && e.inProcess) replace(req.id);
  } finally {
    running.delete(req.id);
  }
}

function runMedia(req: WorkerRequest, deps: MediaDeps, op: Running) {
  if (req.op === 'derivatives') return buildDerivatives(deps, req.photo);
  if (req.op === 'webCopy') {
    return encodeWebCopy(deps, req.photo, {
      signal: op.abort.signal,
      onStart: (tool) => {
        op.tool = tool;
        if (op.paused) tool.pause();
      },
      onProgress: throttled((seconds) => send({ type: 'progress', id: req.id, seconds })),
    });
  }
  if (req.op === 'measure') return measureStored(deps, req.photo);
  return rotateOriginal(deps.paths, req.photo, req.degrees ?? 90, deps.tools.stepMs);
}

/** A keepsake: its progress reported, and held between its steps while the server has it paused. */
function runKeepsake(req: WorkerKeepsakeRequest, op: Running) {
  const ctl: MakeControl = {
    signal: op.abort.signal,
    progress: throttled((percent) => send({ type: 'progress', id: req.id, seconds: percent })),
    async turn() {
      while (op.paused && !op.abort.signal.aborted) await new Promise((r) => setTimeout(r, 250));
    },
    onTool(tool) {
      op.tool = tool;
      if (op.paused) tool.pause();
    },
  };
  return req.plan.kind === 'film' ? makeFilm(req.plan, ctl) : makeBook(req.plan, ctl);
}

function runAudio(req: WorkerAudioRequest, deps: MediaDeps, signal: AbortSignal) {
  if (req.op === 'probe') return probeAudio(deps.tools, req.input, { signal });
  if (!req.output || !req.facts) throw new Error('An audio copy needs its output and the facts of its input.');
  return writeAudioWebCopy(deps.tools, req.input, req.output, req.facts, signal);
}

/** At most one report every 2 s. */
function throttled(report: (seconds: number) => void): (seconds: number) => void {
  let last = 0;
  return (seconds) => {
    if (Date.now() - last < 2000) return;
    last = Date.now();
    report(seconds);
  };
}

/**
 * Leaves so that a fresh worker takes over: the operations still under way are answered as a
 * machine failure (tried again without spending an attempt; the file was not to blame).
 */
function replace(culprit: number): void {
  leaving = true;
  for (const id of running.keys()) {
    if (id !== culprit) send({ type: 'failed', id, error: { kind: 'machine', message: 'The processing was restarted while working on this file.' } });
  }
  leave();
}

/** Kills every tool under way (their spawn carries the signal) and leaves. */
function leave(): void {
  for (const op of running.values()) op.abort.abort();
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
    case 'run-audio':
    case 'run-keepsake':
      if (!deps) return send({ type: 'failed', id: m.id, error: { kind: 'other', message: 'The media worker was not set up.' } });
      void run(m, deps);
      return;
    case 'cancel':
      running.get(m.id)?.abort.abort();
      return;
    case 'pause':
    case 'resume': {
      const op = running.get(m.id);
      if (!op) return;
      op.paused = m.type === 'pause';
      if (op.paused) op.tool?.pause();
      else op.tool?.resume();
      return;
    }
    case 'stop':
      leave();
      return;
  }
});
// The server hears from this process while its event loop turns; one that stops is replaced.
setInterval(() => send({ type: 'alive' }), WORKER_HEARTBEAT_MS).unref();
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

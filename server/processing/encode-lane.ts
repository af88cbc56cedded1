import type { Pausable } from './ffmpeg.js';

/**
 * Which of the solo lane's jobs (video re-encodes) runs. The queue asks before it claims one
 * (`admit`), tells when one has ended (`done`), and when it admits nothing calls `idle`.
 */
export interface SoloLane {
  /** Whether job `jobId`, a clip of `duration` seconds (null: unknown), starts now. */
  admit(jobId: number, duration: number | null): boolean;
  done(jobId: number): void;
  /** Nothing queued was admitted: work on what is paused, if anything. */
  idle(): void;
}

/** One job at a time, in the order they come (lanes of jobs that cannot be paused). */
export function oneAtATime(): SoloLane {
  const running = new Set<number>();
  return {
    admit: (jobId) => (running.size === 0 ? (running.add(jobId), true) : false),
    done: (jobId) => void running.delete(jobId),
    idle: () => undefined,
  };
}

interface Encode {
  jobId: number;
  /** Seconds of video; Infinity when unknown (it never goes ahead of a known length). */
  duration: number;
  /** Seconds encoded so far (ffmpeg's progress). */
  encoded: number;
  tool?: Pausable;
  paused: boolean;
}

/** At most this many encoders wait paused, each holding its memory (a few hundred MB for 4K). */
export const MAX_PAUSED = 2;

/**
 * The re-encode lane: one encoder has the CPU at a time (at nice 19), and the clip with the
 * least video left to encode goes first. A clip shorter than what is left of the running encode
 * pauses it (SIGSTOP: no work is lost, its time limit stops too) and runs at once; when it ends,
 * the paused encode with the least left continues unless a queued clip is shorter still. So one
 * long video never holds a short clip's web copy back: a short clip waits only for clips shorter
 * than itself (CONTRACT "No job waits forever").
 */
export class EncodeLane implements SoloLane {
  private running: Encode | undefined;
  private readonly paused: Encode[] = [];

  constructor(private readonly maxPaused = MAX_PAUSED) {}

  admit(jobId: number, duration: number | null): boolean {
    const d = duration ?? Infinity;
    const ahead = this.running ? [this.running] : this.paused;
    if (ahead.length && (this.paused.length >= this.maxPaused || !ahead.every((e) => d < left(e)))) return false;
    if (this.running) this.pause(this.running);
    this.running = { jobId, duration: d, encoded: 0, paused: false };
    return true;
  }

  /** The admitted job's encoder is running (or about to): its pause and resume. */
  attach(jobId: number, tool: Pausable): void {
    const e = this.find(jobId);
    if (!e) return;
    e.tool = tool;
    if (e.paused) tool.pause();
  }

  progress(jobId: number, seconds: number): void {
    const e = this.find(jobId);
    if (e) e.encoded = Math.max(e.encoded, seconds);
  }

  done(jobId: number): void {
    if (this.running?.jobId === jobId) this.running = undefined;
    const i = this.paused.findIndex((e) => e.jobId === jobId);
    if (i >= 0) this.paused.splice(i, 1);
  }

  idle(): void {
    if (this.running || !this.paused.length) return;
    const next = this.paused.reduce((a, b) => (left(b) < left(a) ? b : a));
    this.paused.splice(this.paused.indexOf(next), 1);
    next.paused = false;
    next.tool?.resume();
    this.running = next;
  }

  /** Jobs by state, for tests and the log. */
  get state(): { running: number | undefined; paused: number[] } {
    return { running: this.running?.jobId, paused: this.paused.map((e) => e.jobId) };
  }

  private pause(e: Encode): void {
    e.paused = true;
    e.tool?.pause();
    this.paused.push(e);
    this.running = undefined;
  }

  private find(jobId: number): Encode | undefined {
    return this.running?.jobId === jobId ? this.running : this.paused.find((e) => e.jobId === jobId);
  }
}

const left = (e: Encode) => e.duration - e.encoded;

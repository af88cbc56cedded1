import type { Request, RequestHandler } from 'express';
import type { Socket } from 'node:net';

/** The slowest a request body may arrive, averaged over the idle timeout's window: 1 KiB/s. */
export const MIN_BODY_BYTES_PER_S = 1024;
const TICK_MS = 1000;

interface Watched {
  req: Request;
  socket: Socket;
  lastRead: number;
  /** When it was last looked at. */
  at: number;
  /** Time in this window during which the server was ready to read (not pausing the body itself). */
  activeMs: number;
  bytes: number;
}

/**
 * Bodies arriving slower than MIN_BODY_BYTES_PER_S over a window are ended like idle ones: a byte
 * a minute would otherwise keep the idle timer from ever firing while holding a connection, a
 * file descriptor and an upload's lock. One timer for every body under way; the socket's own
 * count of bytes read means nothing is added to the request's stream. Time the server itself
 * holds the body back (paused: a write falling behind, the pacer, a lock) is not counted.
 */
class SlowBodies {
  private readonly watched = new Set<Watched>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly windowMs: number) {}

  watch(req: Request): () => void {
    const w: Watched = { req, socket: req.socket, lastRead: req.socket.bytesRead, at: performance.now(), activeMs: 0, bytes: 0 };
    this.watched.add(w);
    this.timer ??= setInterval(() => this.tick(), TICK_MS).unref();
    return () => {
      this.watched.delete(w);
      if (this.watched.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = undefined;
      }
    };
  }

  private tick(): void {
    const least = (MIN_BODY_BYTES_PER_S * this.windowMs) / 1000;
    const now = performance.now();
    for (const w of this.watched) {
      const read = w.socket.bytesRead;
      w.bytes += read - w.lastRead;
      w.lastRead = read;
      const elapsed = now - w.at;
      w.at = now;
      if (w.req.isPaused()) continue;
      w.activeMs += elapsed;
      if (w.activeMs < this.windowMs) continue;
      if (w.bytes < least && !w.req.complete) {
        this.watched.delete(w);
        w.req.destroy(new Error(`the request body arrived at less than ${MIN_BODY_BYTES_PER_S} bytes per second for ${this.windowMs / 1000} s`));
        continue;
      }
      w.activeMs = 0;
      w.bytes = 0;
    }
  }
}

/**
 * Ends a request whose body stops arriving, or arrives slower than MIN_BODY_BYTES_PER_S over
 * `idleMs`: such a client would otherwise hold its connection, its file handle and its upload's
 * lock forever. Destroying the request errors its file part, so a chunk cut off this way keeps
 * what reached the file.
 *
 * The socket's inactivity timer runs only while the body is being read, so an answer that takes
 * long to compute is not cut; and a body the server itself paused (a write falling behind, a
 * chunk waiting for its upload's lock) is not the client's fault, so the timer starts again.
 */
export function endIdleBodies(idleMs: number): RequestHandler {
  const slow = new SlowBodies(idleMs);
  return (req, res, next) => {
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (!hasBody || req.complete) return next();
    const socket = req.socket;
    const onIdle = () => {
      if (req.complete) return;
      if (req.isPaused()) {
        socket.setTimeout(idleMs);
        return;
      }
      req.destroy(new Error(`no byte of the request body arrived for ${idleMs / 1000} s`));
    };
    let armed = true;
    const unwatch = slow.watch(req);
    const disarm = () => {
      armed = false;
      unwatch();
      req.off('timeout', onIdle);
    };
    req.setTimeout(idleMs, onIdle);
    // The whole body is in: stop the timer (unless the answer went first and Node has since set
    // the socket's keep-alive timeout, which must stay).
    req.once('end', () => {
      if (armed && !socket.destroyed) socket.setTimeout(0);
      disarm();
    });
    res.once('finish', disarm);
    res.once('close', disarm);
    next();
  };
}

import type { RequestHandler } from 'express';

/**
 * Ends a request whose body stops arriving: a client that sends no byte for `idleMs` would
 * otherwise hold its connection, its file handle and its upload's lock forever. Destroying the
 * request errors its file part, so a chunk cut off this way keeps what reached the file.
 *
 * The socket's inactivity timer runs only while the body is being read, so an answer that takes
 * long to compute is not cut; and a body the server itself paused (a write falling behind, a
 * chunk waiting for its upload's lock) is not the client's fault, so the timer starts again.
 */
export function endIdleBodies(idleMs: number): RequestHandler {
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
    const disarm = () => {
      armed = false;
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

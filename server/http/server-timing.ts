import type { RequestHandler } from 'express';

/**
 * Adds `Server-Timing: after-body;dur=<ms>` to an answer: the server's own time from the last
 * byte of the request body read to the answer's headers. A client cannot measure this itself
 * (socket buffers hold megabytes, so "sent" is not "received"), and it is the part of an upload
 * that a busy server makes a phone wait for.
 */
export const afterBodyTiming: RequestHandler = (req, res, next) => {
  let bodyEnd = 0;
  req.once('end', () => (bodyEnd = performance.now()));
  const writeHead = res.writeHead;
  res.writeHead = function (this: typeof res, ...args: unknown[]) {
    if (bodyEnd && !this.headersSent) this.setHeader('Server-Timing', `after-body;dur=${(performance.now() - bodyEnd).toFixed(1)}`);
    return (writeHead as (...a: unknown[]) => typeof res).apply(this, args);
  } as typeof res.writeHead;
  next();
};

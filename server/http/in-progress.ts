import type { RequestHandler } from 'express';
import type { AppError } from '../errors.js';
import { sendErrorAfterDrain } from './multipart.js';

/**
 * At most `max` requests through this handler at once, server-wide; the next is refused with
 * `refusal()` (a 503 with Retry-After) after its body is read past, so a phone still sending
 * sees the answer. Each holds a connection, a file descriptor and maybe an upload's lock: the cap
 * keeps a flood from taking every one of them.
 */
export function inProgressCap(max: number, refusal: () => AppError): RequestHandler {
  let inProgress = 0;
  return (req, res, next) => {
    if (inProgress >= max) return sendErrorAfterDrain(req, res, refusal());
    inProgress++;
    res.once('close', () => inProgress--);
    next();
  };
}

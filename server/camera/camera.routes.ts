import { Router } from 'express';
import type { ShotsResponse } from '../../common/api-types.js';
import { guestId, withGuest } from '../http/guest.js';
import type { Shots } from './shots.js';

/** GET /api/my/shots: how many photos and videos the calling guest may still add (null: no limit; signed in: no limit). */
export function shotsRouter(shots: Shots): Router {
  const r = Router();
  r.get('/my/shots', withGuest, async (req, res) => {
    res.set('Cache-Control', 'private, no-store');
    const left = req.user ? { shot_limit: (await shots.left(null)).shot_limit, shots_left: null } : await shots.left(guestId(res));
    res.json({ success: true, ...left } satisfies ShotsResponse);
  });
  return r;
}

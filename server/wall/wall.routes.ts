import { Router } from 'express';
import type { WallsResponse } from '../../common/api-types.js';
import { requireAuth } from '../auth/auth.middleware.js';
import type { WallService } from './wall.service.js';

/** The couple's remote, for every signed-in role: PUT /wall, POST /wall/command and /wall/announce, GET /walls. */
export function adminWallRouter(wall: WallService): Router {
  const r = Router();
  r.get('/wall', requireAuth, async (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ success: true, wall: await wall.controls() });
  });
  r.put('/wall', requireAuth, async (req, res) => {
    res.json({ success: true, wall: await wall.setControls(req.body) });
  });
  r.post('/wall/command', requireAuth, async (req, res) => {
    res.json({ success: true, ...(await wall.command(req.body)) });
  });
  r.post('/wall/announce', requireAuth, async (req, res) => {
    res.json({ success: true, ...(await wall.announce(req.body)) });
  });
  // The dashboard's count per table.
  r.get('/wall/tables', requireAuth, async (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ success: true, tables: await wall.tableCounts() });
  });
  r.get('/walls', requireAuth, (_req, res) => {
    const answer: WallsResponse = { success: true, ...wall.walls() };
    res.set('Cache-Control', 'no-store').json(answer);
  });
  return r;
}

/** POST /api/wall/heartbeat: an open wall (no account) reports what it shows. */
export function publicWallRouter(wall: WallService): Router {
  const r = Router();
  // The tables with photos, busiest first: the wall's slide and the gallery's filter (counts of photos guests see anyway).
  r.get('/wall/tables', async (_req, res) => {
    res.set('Cache-Control', 'no-cache').json({ success: true, tables: await wall.tableCounts(true) });
  });
  r.post('/wall/heartbeat', (req, res) => {
    wall.heartbeat(req.body);
    res.status(204).end();
  });
  return r;
}

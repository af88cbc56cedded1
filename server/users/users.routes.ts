import { Router } from 'express';
import { requirePermission } from '../auth/middleware.js';
import { badRequest } from '../http/errors.js';
import type { UsersService } from './users.service.js';
import { parseUserInput } from './users.validation.js';

function userId(raw: string): number {
  if (!/^\d+$/.test(raw)) throw badRequest('User id must be a number.');
  return Number(raw);
}

/** /admin/api/users: admin only (SPEC §6). */
export function usersRouter(users: UsersService): Router {
  const r = Router();
  r.use(requirePermission('can_manage_users'));

  r.get('/', async (_req, res) => {
    res.json({ success: true, users: await users.list() });
  });
  r.post('/', async (req, res) => {
    res.status(201).json({ success: true, user: await users.create(parseUserInput(req.body, 'create'), req.user!) });
  });
  r.put('/:id', async (req, res) => {
    const user = await users.update(userId(req.params.id), parseUserInput(req.body, 'edit'), req.user!);
    res.json({ success: true, user });
  });
  r.delete('/:id', async (req, res) => {
    await users.delete(userId(req.params.id), req.user!);
    res.json({ success: true, message: 'User deleted' });
  });
  r.post('/:id/toggle-active', async (req, res) => {
    res.json({ success: true, user: await users.toggleActive(userId(req.params.id), req.user!) });
  });
  return r;
}

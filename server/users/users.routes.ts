import { Router } from 'express';
import { requirePermission } from '../auth/auth.middleware.js';
import { invalid } from '../errors.js';
import { languageOf } from '../http/language.js';
import { translate } from '../i18n/messages.js';
import type { UsersService } from './users.service.js';
import { parseUserInput } from './users.validation.js';

function userId(raw: string): number {
  if (!/^\d+$/.test(raw)) throw invalid('errors.users.id_not_number');
  return Number(raw);
}

/** /admin/api/users...: admin only (SPEC §6). The router is mounted at /admin/api. */
export function usersRouter(users: UsersService): Router {
  const r = Router();
  // The permission check guards every path under /users (unknown ones included) and nothing else.
  const u = Router();
  u.use(requirePermission('can_manage_users'));

  u.get('/', async (_req, res) => {
    res.json({ success: true, users: await users.list() });
  });
  u.post('/', async (req, res) => {
    const user = await users.create(parseUserInput(req.body, 'create'), req.user!);
    req.audit('user.create', { ids: [user.id], detail: { username: user.username, role: user.role } });
    res.status(201).json({ success: true, user });
  });
  u.put('/:id', async (req, res) => {
    const input = parseUserInput(req.body, 'edit');
    const user = await users.update(userId(req.params.id), input, req.user!, req.sessionID);
    // Which fields changed, never the password itself.
    req.audit('user.update', { ids: [user.id], detail: { username: user.username, fields: Object.keys(input) } });
    res.json({ success: true, user });
  });
  u.delete('/:id', async (req, res) => {
    const id = userId(req.params.id);
    await users.delete(id, req.user!);
    req.audit('user.delete', { ids: [id] });
    res.json({ success: true, message: translate(languageOf(req), 'answers.user_deleted') });
  });
  u.post('/:id/toggle-active', async (req, res) => {
    const user = await users.toggleActive(userId(req.params.id), req.user!);
    req.audit(user.is_active ? 'user.activate' : 'user.deactivate', { ids: [user.id], detail: { username: user.username } });
    res.json({ success: true, user });
  });

  r.use('/users', u);
  return r;
}

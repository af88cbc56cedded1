import type { Module } from '../http/module.js';
import { usersRouter } from './users.routes.js';
import type { UsersService } from './users.service.js';

/** The users screen's API: /admin/api/users... (admin only). */
export function createUsersModule({ users }: { users: UsersService }): Module {
  return { name: 'users', adminApi: [usersRouter(users)] };
}

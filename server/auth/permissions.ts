import type { Permissions } from '../../common/api-types.js';
import type { Role } from '../db/schema.js';

/**
 * Permissions are data: one table from role to capabilities. The server checks them
 * with requirePermission(); the client receives the same flags as user_permissions.
 */
export type { Permissions } from '../../common/api-types.js';

export const ROLES: readonly Role[] = ['family', 'bride', 'groom', 'admin'];

const ROLE_PERMISSIONS: Record<Role, Permissions> = {
  admin: {
    can_manage_users: true,
    can_moderate_photos: true,
    is_admin: true,
    can_delete_photos: true,
    can_edit_settings: true,
    can_view_admin: true,
  },
  bride: {
    can_manage_users: false,
    can_moderate_photos: true,
    is_admin: false,
    can_delete_photos: false,
    can_edit_settings: false,
    can_view_admin: true,
  },
  groom: {
    can_manage_users: false,
    can_moderate_photos: true,
    is_admin: false,
    can_delete_photos: false,
    can_edit_settings: false,
    can_view_admin: true,
  },
  family: {
    can_manage_users: false,
    can_moderate_photos: false,
    is_admin: false,
    can_delete_photos: false,
    can_edit_settings: false,
    can_view_admin: true,
  },
};

export type Permission = keyof Permissions;

/** The signed-in user as requests and services see it (set on req.user by loadUser). */
export interface AuthUser {
  id: number;
  username: string;
  full_name: string;
  role: Role;
  permissions: Permissions;
}

export function permissionsFor(role: Role): Permissions {
  return { ...ROLE_PERMISSIONS[role] };
}

export function isRole(v: unknown): v is Role {
  return typeof v === 'string' && (ROLES as readonly string[]).includes(v);
}

/** The sentence a 403 carries for each permission. */
export const FORBIDDEN_MESSAGE: Record<Permission, string> = {
  can_manage_users: 'errors.auth.admin_required',
  is_admin: 'errors.auth.admin_required',
  can_delete_photos: 'errors.auth.admin_required',
  can_edit_settings: 'errors.auth.admin_required',
  can_moderate_photos: 'errors.auth.moderator_required',
  can_view_admin: 'errors.auth.forbidden',
};

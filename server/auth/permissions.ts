import type { Role } from '../db/schema.js';

/**
 * Permissions are data: one table from role to capabilities. The server checks them
 * with requirePermission(); the client receives the same flags as user_permissions.
 */
export interface Permissions {
  /** Users screen, user statistics, deleting photos (SPEC §6). */
  can_manage_users: boolean;
  /** Rotate, regenerate thumbnails, the approval queue. */
  can_moderate_photos: boolean;
  is_admin: boolean;
  /** Delete single, bulk, reject. */
  can_delete_photos: boolean;
  /** Wedding content and the uploads switch. */
  can_edit_settings: boolean;
  /** Every signed-in user: dashboard, photo list, toggle/approve/hide, download, export, QR. */
  can_view_admin: boolean;
}

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

export function permissionsFor(role: Role): Permissions {
  return { ...ROLE_PERMISSIONS[role] };
}

export function isRole(v: unknown): v is Role {
  return typeof v === 'string' && (ROLES as readonly string[]).includes(v);
}

/** The sentence a 403 carries for each permission. */
export const FORBIDDEN_MESSAGE: Record<Permission, string> = {
  can_manage_users: 'Insufficient permissions. Admin role required.',
  is_admin: 'Insufficient permissions. Admin role required.',
  can_delete_photos: 'Insufficient permissions. Admin role required.',
  can_edit_settings: 'Insufficient permissions. Admin role required.',
  can_moderate_photos: 'Insufficient permissions. Moderator role required.',
  can_view_admin: 'Insufficient permissions.',
};

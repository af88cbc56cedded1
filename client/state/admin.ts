import { signal } from '@preact/signals-react';
import { navigate } from 'wouter/use-browser-location';
import type { MeResponse, Permissions } from '../../common/api-types';
import { adminApi, isUnauthorized } from '../api/admin';
import { ApiError } from '../api/http';

/** The signed-in admin user and their permission flags; null until known. */
export const me = signal<MeResponse | null>(null);

const NONE: Permissions = {
  can_manage_users: false,
  can_moderate_photos: false,
  is_admin: false,
  can_delete_photos: false,
  can_edit_settings: false,
  can_view_admin: false,
};
export const permissionsOf = (m: MeResponse | null): Permissions => m?.user_permissions ?? NONE;

let pending: Promise<void> | undefined;

/** Loads /admin/api/me once; a 401 sends the browser to the login page, other failures are ignored (SPEC §8). */
export function loadMe(force = false): Promise<void> {
  if (pending && !force) return pending;
  pending = adminApi
    .me()
    .then((r) => {
      me.value = r;
    })
    .catch((err) => {
      pending = undefined;
      if (!handleUnauthorized(err)) console.error('Could not load the current user', err);
    });
  return pending;
}

export function setMe(r: MeResponse | null): void {
  me.value = r;
  pending = r ? Promise.resolve() : undefined;
}

/** SPEC §8: a 401 on any admin load ends on /admin/login. Returns true when it handled the error. */
export function handleUnauthorized(err: unknown): boolean {
  // Two-step sign-in is required and this account has no second factor yet: only its set-up is open.
  if (err instanceof ApiError && err.code === 'two_step_required') {
    if (location.pathname !== '/admin/security') navigate('/admin/security', { replace: true });
    return true;
  }
  if (!isUnauthorized(err)) return false;
  setMe(null);
  if (location.pathname !== '/admin/login') navigate('/admin/login', { replace: true });
  return true;
}

/**
 * Set by Logout: the login screen then stays put even if the logout request failed and the
 * old session still answers /me (SPEC §4: logout always ends on the login screen).
 */
let signedOut = false;
export function markSignedOut(): void {
  signedOut = true;
}
export function takeSignedOut(): boolean {
  const was = signedOut;
  signedOut = false;
  return was;
}

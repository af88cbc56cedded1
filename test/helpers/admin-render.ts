import './admin-dom.js';
import { act, createElement, Fragment } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { Router } from 'wouter';
import AdminApp from '../../client/pages/admin/AdminApp.js';
import { Toaster, toasts } from '../../client/components/ui/toast.js';
import { setMe } from '../../client/state/admin.js';
import { api, dialogs, win } from './admin-dom.js';
import type { UserPermissions } from '../../client/api/admin.js';

export type RoleName = 'admin' | 'bride' | 'groom' | 'family';

/** The permission flags the server gives each role (server/auth/permissions.ts). */
export function permsFor(role: RoleName): Required<UserPermissions> {
  const admin = role === 'admin';
  const moderator = admin || role === 'bride' || role === 'groom';
  return {
    can_manage_users: admin,
    can_moderate_photos: moderator,
    is_admin: admin,
    can_delete_photos: admin,
    can_edit_settings: admin,
    can_view_admin: true,
  };
}

export function meFor(role: RoleName) {
  return {
    success: true,
    user: { id: 1, username: `${role}1`, full_name: `The ${role}`, role },
    user_permissions: permsFor(role),
  };
}

let root: Root | undefined;
let container: HTMLElement | undefined;

/** Lets fetches resolve and React commit, several rounds. */
export async function settle(rounds = 6): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    await act(async () => {
      await new Promise((r) => setTimeout(r, 0));
    });
  }
}

/** Mounts the admin app (as client/routes.tsx nests it under /admin) at `path`. */
export async function renderAdmin(path: string): Promise<HTMLElement> {
  await cleanup();
  win.history.replaceState(null, '', path);
  container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
  await act(async () => {
    root!.render(createElement(Fragment, null, createElement(Router, { base: '/admin', children: createElement(AdminApp) }), createElement(Toaster)));
  });
  await settle();
  return container;
}

export async function cleanup(): Promise<void> {
  if (root) await act(async () => root!.unmount());
  container?.remove();
  root = undefined;
  container = undefined;
  setMe(null);
  toasts.value = [];
  dialogs.confirms = [];
  dialogs.alerts = [];
  dialogs.confirmAnswer = true;
}

const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();

/** Buttons and links whose visible text or aria-label is exactly `name`. */
export function controls(name: string, scope: ParentNode = document): HTMLElement[] {
  return [...scope.querySelectorAll<HTMLElement>('button, a')].filter((el) => norm(el.textContent) === name || el.getAttribute('aria-label') === name);
}
export function control(name: string, scope: ParentNode = document): HTMLElement {
  const found = controls(name, scope);
  if (found.length === 0) throw new Error(`No control named "${name}" in: ${norm((scope as Element).textContent ?? document.body.textContent)}`);
  return found[0];
}
export const hasText = (text: string, scope: Element = document.body) => norm(scope.textContent).includes(text);

export async function click(el: HTMLElement): Promise<void> {
  await act(async () => {
    el.click();
  });
  await settle();
}

/** Types into a React-controlled input (through the prototype setter React listens behind). */
export async function type(el: HTMLInputElement | HTMLTextAreaElement, value: string): Promise<void> {
  const proto = el.tagName === 'TEXTAREA' ? win.HTMLTextAreaElement.prototype : win.HTMLInputElement.prototype;
  await act(async () => {
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value);
    el.dispatchEvent(new win.Event('input', { bubbles: true }) as unknown as Event);
  });
}

export async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    if (check()) return;
    await settle(1);
  }
  throw new Error(`Timed out waiting for ${what}; page: ${norm(document.body.textContent)}`);
}

export { api, dialogs, win };

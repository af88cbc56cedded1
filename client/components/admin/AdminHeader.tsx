import { useSignals } from '@preact/signals-react/runtime';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import LogOut from 'lucide-react/icons/log-out';
import Menu from 'lucide-react/icons/menu';
import X from 'lucide-react/icons/x';
import { adminApi } from '../../api/admin';
import { markSignedOut, me, permissionsOf, setMe } from '../../state/admin';
import { t } from './t';

/** SPEC §2 "Admin header": title, navigation (Users only with can_manage_users), Logout, narrow-screen menu. */
export function AdminHeader() {
  useSignals();
  const [location, setLocation] = useLocation();
  const [open, setOpen] = useState(false);
  const perms = permissionsOf(me.value);

  const items = [
    { href: '/dashboard', label: t('admin.nav.dashboard') },
    { href: '/photos', label: t('admin.nav.photos') },
    { href: '/guestbook', label: t('admin.nav.guestbook') },
    { href: '/keepsakes', label: t('admin.nav.keepsakes') },
    ...(perms.can_manage_users ? [{ href: '/users', label: t('admin.nav.users') }] : []),
    ...(perms.is_admin ? [{ href: '/audit', label: t('admin.nav.audit') }] : []),
    { href: '/security', label: t('admin.nav.security') },
  ];

  const logout = async () => {
    setOpen(false);
    try {
      await adminApi.logout();
    } catch (err) {
      // SPEC §8: a failed logout is only logged; the user still lands on the login screen.
      console.error('Logout failed', err);
    }
    setMe(null);
    markSignedOut();
    setLocation('/login');
  };

  return (
    <header className="admin-header">
      <div className="admin-header-inner">
        <Link href="/dashboard" className="admin-title">
          {t('admin.nav.title')}
        </Link>
        <button
          type="button"
          className="btn btn-ghost btn-icon admin-menu-toggle"
          aria-expanded={open}
          aria-controls="admin-nav"
          aria-label={open ? t('admin.nav.close_menu') : t('admin.nav.open_menu')}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? <X size={22} aria-hidden="true" /> : <Menu size={22} aria-hidden="true" />}
        </button>
        <nav id="admin-nav" className={`admin-nav${open ? ' is-open' : ''}`} aria-label={t('admin.nav.label')}>
          {items.map((it) => {
            const current = location === it.href || location.startsWith(it.href + '/');
            return (
              <Link
                key={it.href}
                href={it.href}
                className={`btn ${current ? 'admin-nav-current' : 'btn-ghost'}`}
                aria-current={current ? 'page' : undefined}
                onClick={() => setOpen(false)}
              >
                {it.label}
              </Link>
            );
          })}
          <button type="button" className="btn btn-outline" onClick={logout}>
            <LogOut size={18} aria-hidden="true" className="flip-rtl" />
            {t('admin.nav.logout')}
          </button>
        </nav>
      </div>
    </header>
  );
}

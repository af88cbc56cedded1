import { useEffect, type ReactNode } from 'react';
import { Footer } from '../Footer';
import { loadMe } from '../../state/admin';
import { AdminHeader } from './AdminHeader';
import { t } from './t';

/** Frame of every signed-in admin screen: loads the current user (401 -> login), header, footer. */
export function AdminShell({ children }: { children: ReactNode }) {
  useEffect(() => {
    void loadMe();
  }, []);
  useEffect(() => {
    // The panel keeps its own look: a guest page's theme (reached by a link, not a reload) steps aside.
    const vars = document.getElementById('theme-vars') as HTMLStyleElement | null;
    if (!vars) return;
    vars.media = 'not all';
    return () => {
      vars.media = 'all';
    };
  }, []);
  return (
    <div className="page admin-page">
      <AdminHeader />
      <main className="container admin-main">{children}</main>
      <Footer />
    </div>
  );
}

/** The card shown when a load fails (SPEC §4: error with "Try Again"). */
export function ErrorCard({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div className="card admin-error-card" role="alert">
      <p>{message}</p>
      <button type="button" className="btn" onClick={onRetry}>
        {t('admin.try_again')}
      </button>
    </div>
  );
}

/** The card shown where the signed-in role may not go. */
export function ForbiddenCard() {
  return (
    <div className="card admin-error-card" role="alert">
      <p>{t('admin.forbidden')}</p>
    </div>
  );
}

import '../../shared-chunk';
import type { ReactNode } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { AdminShell } from '../../components/admin/AdminShell';
import { LoginPage } from './LoginPage';
import { DashboardPage } from './DashboardPage';
import { PhotosPage } from './PhotosPage';
import { GuestbookAdminPage } from './GuestbookAdminPage';
import { UsersPage } from './UsersPage';
import { SettingsPage } from './SettingsPage';
import { QrPage } from './QrPage';
import { SecurityPage } from './SecurityPage';
import { AuditPage } from './AuditPage';
import { RemotePage } from './RemotePage';
import { KeepsakesPage } from './KeepsakesPage';

const shell = (page: ReactNode) => <AdminShell>{page}</AdminShell>;

/** Routes under /admin (nested: paths here are relative; "~/" is absolute). */
export default function AdminApp() {
  return (
    <Switch>
      <Route path="/login" component={LoginPage} />
      <Route path="/dashboard">{shell(<DashboardPage />)}</Route>
      <Route path="/photos">{shell(<PhotosPage />)}</Route>
      <Route path="/guestbook">{shell(<GuestbookAdminPage />)}</Route>
      <Route path="/users">{shell(<UsersPage />)}</Route>
      <Route path="/settings">{shell(<SettingsPage />)}</Route>
      <Route path="/qr">{shell(<QrPage />)}</Route>
      <Route path="/security">{shell(<SecurityPage />)}</Route>
      <Route path="/audit">{shell(<AuditPage />)}</Route>
      <Route path="/remote">{shell(<RemotePage />)}</Route>
      <Route path="/keepsakes">{shell(<KeepsakesPage />)}</Route>
      {/* SPEC §2: any other path redirects to / */}
      <Route>
        <Redirect to="~/" replace />
      </Route>
    </Switch>
  );
}

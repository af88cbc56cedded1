import { lazy, Suspense, useEffect } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { Toaster } from './components/ui/toast';
import { loadSettings } from './state/settings';
import { HomePage } from './pages/HomePage';
import { LivePage } from './pages/LivePage';
import { GalleryPage } from './pages/GalleryPage';

// Admin code and the wall live in their own chunks: guests never download them.
const AdminApp = lazy(() => import('./pages/admin/AdminApp'));
const WallPage = lazy(() => import('./pages/WallPage'));

export function App() {
  useEffect(() => {
    void loadSettings();
  }, []);
  return (
    <>
      <Suspense fallback={<div className="page-loading" aria-busy="true" />}>
        <Switch>
          <Route path="/" component={HomePage} />
          <Route path="/live" component={LivePage} />
          <Route path="/gallery" component={GalleryPage} />
          <Route path="/wall" component={WallPage} />
          <Route path="/admin" nest>
            <AdminApp />
          </Route>
          <Route>
            <Redirect to="/" replace />
          </Route>
        </Switch>
      </Suspense>
      <Toaster />
    </>
  );
}

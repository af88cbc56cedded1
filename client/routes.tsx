import { useSignals } from '@preact/signals-react/runtime';
import { lazy, Suspense, useEffect } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { Toaster } from './components/ui/toast';
import { language, withTexts } from './i18n';
import { loadSettings } from './state/settings';
import { HomePage } from './pages/HomePage';
import { LivePage } from './pages/LivePage';
import { GalleryPage } from './pages/GalleryPage';

// Admin code and the wall live in their own chunks: guests never download them. The admin
// panel's texts are a catalogue part of their own, fetched with it (withTexts).
const AdminApp = lazy(() => withTexts(import('./pages/admin/AdminApp')));
const WallPage = lazy(() => import('./pages/WallPage'));
// Not every guest writes in the guestbook: its page and texts load when opened.
const GuestbookPage = lazy(() => withTexts(import('./components/guestbook/GuestbookPage')));
// The photo booth runs on one tablet: its page, camera and texts load only there.
const BoothPage = lazy(() => withTexts(import('./components/camera/BoothPage')));

export function App() {
  useSignals();
  // Every text re-renders in a newly chosen language, while each page keeps its state.
  const lang = language.value;
  useEffect(() => {
    // The couple's own words come in the page's language: read again after a switch.
    void loadSettings(true);
  }, [lang]);
  return (
    <>
      <Suspense fallback={<div className="page-loading" aria-busy="true" />}>
        <Switch>
          <Route path="/" component={HomePage} />
          <Route path="/live" component={LivePage} />
          <Route path="/gallery" component={GalleryPage} />
          <Route path="/wall" component={WallPage} />
          <Route path="/guestbook" component={GuestbookPage} />
          <Route path="/booth" component={BoothPage} />
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

import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { PublicUrlResponse } from '../../../common/api-types';
import { isUnauthorized } from '../../api/admin';
import { getJson } from '../../api/http';
import { coupleNames, loadSettings, settings } from '../../state/settings';
import { WallPauseButton } from '../../components/admin/WallPauseButton';
import type { MeResponse } from '../../../common/api-types';

/** /admin/qr: a printable sign with the QR code for the guests' upload page. Any signed-in user. */
export function QrPage() {
  useSignals();
  const [, navigate] = useLocation();
  const [allowed, setAllowed] = useState(false);
  const [canPause, setCanPause] = useState(false);
  const [liveUrl, setLiveUrl] = useState(`${window.location.origin}/live`);

  useEffect(() => {
    let live = true;
    getJson<MeResponse>('/admin/api/me')
      .then((r) => {
        if (!live) return;
        setAllowed(true);
        setCanPause(r.user_permissions.can_edit_settings);
      })
      .catch((err) => {
        if (live && isUnauthorized(err)) navigate('~/admin/login', { replace: true });
        else if (live) setAllowed(true); // the sign itself is public information; show it anyway
      });
    getJson<PublicUrlResponse>('/api/public-url')
      .then((r) => live && setLiveUrl(r.live_url))
      .catch(() => undefined);
    void loadSettings();
    return () => {
      live = false;
    };
  }, [navigate]);

  useEffect(() => {
    // The print rules key off this class, so they only ever apply to this page.
    document.body.classList.add('qr-sign-printing');
    return () => document.body.classList.remove('qr-sign-printing');
  }, []);

  if (!allowed) return <div className="page-loading" aria-busy="true" />;
  const names = coupleNames(settings.value);
  return (
    <div className="qr-sign-page">
      <section className="qr-sign card">
        {names && <h1 className="qr-sign-names">{names}</h1>}
        <p className="qr-sign-lead">Scan to share your photos and videos from our wedding</p>
        <img className="qr-sign-code" src="/api/qr.svg" alt={`QR code for ${liveUrl}`} />
        <p className="qr-sign-url">{liveUrl}</p>
        <div className="qr-sign-actions">
          <button type="button" className="btn" onClick={() => window.print()}>
            Print
          </button>
          <Link href="~/wall" className="btn btn-outline">
            Open the reception wall
          </Link>
          {canPause && <WallPauseButton />}
        </div>
      </section>
    </div>
  );
}

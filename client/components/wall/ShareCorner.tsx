import { useEffect, useState } from 'react';
import type { PublicUrlResponse } from '../../../common/api-types';
import { getJson } from '../../api/http';
import { t } from './t';

/** The corner card: QR code and "Share your photos: <url>/live". */
export function ShareCorner() {
  // No ?lang= in this code: everyone scans the wall, and each phone opens in its own language.
  const [liveUrl, setLiveUrl] = useState(`${window.location.origin}/live`);
  useEffect(() => {
    let live = true;
    getJson<PublicUrlResponse>('/api/public-url')
      .then((r) => live && setLiveUrl(r.live_url))
      .catch(() => undefined); // the page's own origin is a fine fallback
    return () => {
      live = false;
    };
  }, []);
  return (
    <aside className="wall-share" aria-label={t('wall.share_label')}>
      <img className="wall-qr" src="/api/qr.svg" alt={t('wall.qr_alt', { url: liveUrl })} width={140} height={140} />
      <p>
        {t('wall.share')}
        <br />
        <strong className="wall-share-url" dir="ltr">
          {liveUrl}
        </strong>
      </p>
    </aside>
  );
}

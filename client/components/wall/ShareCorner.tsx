import { useEffect, useState } from 'react';
import type { PublicUrlResponse } from '../../../common/api-types';
import { getJson } from '../../api/http';

/** The corner card: QR code and "Share your photos: <url>/live". */
export function ShareCorner() {
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
    <aside className="wall-share" aria-label="Share your photos">
      <img className="wall-qr" src="/api/qr.svg" alt={`QR code for ${liveUrl}`} width={140} height={140} />
      <p>
        Share your photos:
        <br />
        <strong className="wall-share-url">{liveUrl}</strong>
      </p>
    </aside>
  );
}

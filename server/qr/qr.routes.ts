import { Router, type Request } from 'express';
import type { Config } from '../config.js';
import { liveUrl, publicBaseUrl, type RequestOrigin } from './public-url.js';
import { qrSvg } from './qr.js';

const originOf = (req: Request): RequestOrigin => ({ protocol: req.protocol, host: req.host });

/** GET /qr.svg (the /live address as a QR code) and GET /public-url, both public. */
export function qrRouter(config: Config): Router {
  const r = Router();
  r.get('/public-url', (req, res) => {
    const url = publicBaseUrl(config, originOf(req));
    res.set('Cache-Control', 'no-cache').json({ success: true, url, live_url: liveUrl(url) });
  });
  r.get('/qr.svg', async (req, res) => {
    const svg = await qrSvg(liveUrl(publicBaseUrl(config, originOf(req))));
    // The code depends on the Host header when PUBLIC_URL is unset.
    res.set({ 'Content-Type': 'image/svg+xml; charset=utf-8', 'Cache-Control': 'no-cache', Vary: 'Host, X-Forwarded-Host, X-Forwarded-Proto' });
    res.send(svg);
  });
  return r;
}

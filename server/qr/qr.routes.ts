import { Router, type Request } from 'express';
import type { Config } from '../config.js';
import { liveUrl, publicBaseUrl, type RequestOrigin } from './public-url.js';
import { qrSvg } from './qr.js';
import { SHIPPED } from '../i18n/messages.js';
import { matchTag } from '../i18n/negotiate.js';

const originOf = (req: Request): RequestOrigin => ({ protocol: req.protocol, host: req.host });

/** The upload page's address; with a shipped `?lang=`, one that opens it in that language (a sign in that language). */
function liveUrlFor(config: Config, req: Request): string {
  const lang = matchTag(req.query.lang, SHIPPED);
  return liveUrl(publicBaseUrl(config, originOf(req))) + (lang ? `?lang=${lang}` : '');
}

/** GET /qr.svg (the /live address as a QR code) and GET /public-url, both public. */
export function qrRouter(config: Config): Router {
  const r = Router();
  r.get('/public-url', (req, res) => {
    const url = publicBaseUrl(config, originOf(req));
    res.set('Cache-Control', 'no-cache').json({ success: true, url, live_url: liveUrlFor(config, req) });
  });
  r.get('/qr.svg', async (req, res) => {
    const svg = await qrSvg(liveUrlFor(config, req));
    // The code depends on the Host header when PUBLIC_URL is unset.
    res.set({ 'Content-Type': 'image/svg+xml; charset=utf-8', 'Cache-Control': 'no-cache', Vary: 'Host, X-Forwarded-Host, X-Forwarded-Proto' });
    res.send(svg);
  });
  return r;
}

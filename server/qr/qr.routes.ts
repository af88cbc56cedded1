import { Router, type Request } from 'express';
import type { Config } from '../config.js';
import { liveUrl, publicBaseUrl, type RequestOrigin } from './public-url.js';
import { qrSvg } from './qr.js';
import { SHIPPED } from '../i18n/messages.js';
import { matchTag } from '../i18n/negotiate.js';
import { invalid } from '../errors.js';
import { MAX_TABLES } from '../settings/controls.js';

const originOf = (req: Request): RequestOrigin => ({ protocol: req.protocol, host: req.host });

/** `?table=N` (1-200): a table's own sign, whose uploads carry its number; absent: none. */
function tableOf(req: Request): number | undefined {
  const raw = req.query.table;
  if (raw === undefined || raw === '') return undefined;
  const n = typeof raw === 'string' && /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= MAX_TABLES)) throw invalid('errors.wall.table', { max: MAX_TABLES });
  return n;
}

/**
 * The upload page's address; with a shipped `?lang=`, one that opens it in that language (a sign
 * in that language); with `?table=`, one whose uploads carry that table (a sign on that table).
 */
function liveUrlFor(config: Config, req: Request): string {
  const lang = matchTag(req.query.lang, SHIPPED);
  const table = tableOf(req);
  const query = [table ? `table=${table}` : '', lang ? `lang=${lang}` : ''].filter(Boolean).join('&');
  return liveUrl(publicBaseUrl(config, originOf(req))) + (query ? `?${query}` : '');
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

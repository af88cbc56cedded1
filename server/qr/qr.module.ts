import type { Config } from '../config.js';
import type { Module } from '../http/module.js';
import { qrRouter } from './qr.routes.js';

/** The QR sign helpers: GET /api/qr.svg and GET /api/public-url. */
export function createQrModule(deps: { config: Config }): Module {
  return { name: 'qr', publicApi: [qrRouter(deps.config)] };
}

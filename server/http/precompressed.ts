import fs from 'node:fs';
import path from 'node:path';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Serves the build's precompressed copies (`main-….js.br`, `main-….js.gz`, written by
 * scripts/build.mjs) to browsers that accept them, so a phone on a weak connection downloads
 * about a third of the JavaScript. Everything else, and every browser that accepts neither,
 * falls through to the plain file. Browsers offer `br` over HTTPS (Chromium also to localhost); gzip everywhere.
 */
export function precompressedAssets(dir: string, options: { maxAge: string; immutable: boolean }): RequestHandler {
  // The assets never change while the server runs: list the copies once.
  const copies = new Map<string, { br: boolean; gzip: boolean }>();
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir);
  } catch {
    // No build yet: nothing to serve compressed.
  }
  const present = new Set(names);
  for (const name of names) {
    if (name.endsWith('.br') || name.endsWith('.gz')) continue;
    const br = present.has(`${name}.br`);
    const gzip = present.has(`${name}.gz`);
    if (br || gzip) copies.set(`/${name}`, { br, gzip });
  }

  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const copy = copies.get(req.path);
    if (!copy) return next();
    res.vary('Accept-Encoding');
    // Browsers list gzip before br with the same weight; the smaller copy wins the tie.
    const encoding = copy.br && req.acceptsEncodings('br') ? 'br' : copy.gzip && req.acceptsEncodings('gzip') ? 'gzip' : null;
    if (!encoding) return next();
    res.type(path.extname(req.path));
    res.set('Content-Encoding', encoding);
    const file = `${req.path.slice(1)}.${encoding === 'br' ? 'br' : 'gz'}`;
    res.sendFile(file, { root: dir, maxAge: options.maxAge, immutable: options.immutable }, (err) => {
      if (err && !res.headersSent) {
        res.removeHeader('Content-Encoding');
        next();
      }
    });
  };
}

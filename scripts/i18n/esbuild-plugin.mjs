// esbuild's side of the catalogues: resolves the `locales:` modules (catalogues.mjs) and, for
// the browser, replaces each message key written in the code by its short id, so the long
// keys ("gallery.empty.title") never ship; the catalogues the browser loads use the same ids.
import fs from 'node:fs';
import path from 'node:path';
import { moduleSource, ROOT } from './catalogues.mjs';

const KEY_LITERAL = /(['"])([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)\1/g;

/** @param loc from loadLocales(); shorten: true for the browser build. */
export function localesPlugin(loc, { shorten }) {
  return {
    name: 'locales',
    setup(build) {
      build.onResolve({ filter: /^locales:/ }, (args) => ({ path: args.path.slice('locales:'.length), namespace: 'locales' }));
      build.onLoad({ filter: /.*/, namespace: 'locales' }, (args) => ({
        contents: moduleSource(loc, args.path, { shorten }),
        loader: 'js',
        resolveDir: ROOT,
      }));
      if (!shorten) return;
      const dirs = ['client', 'common'].map((d) => path.join(ROOT, d) + path.sep);
      build.onLoad({ filter: /\.tsx?$/ }, (args) => {
        if (!dirs.some((d) => args.path.startsWith(d))) return undefined;
        const source = fs.readFileSync(args.path, 'utf8');
        const contents = source.replace(KEY_LITERAL, (whole, q, key) => (loc.ids.has(key) ? `${q}${loc.ids.get(key)}${q}` : whole));
        return { contents, loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
      });
    },
  };
}

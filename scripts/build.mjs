// Builds the server bundle (dist/server) and the client (dist/client) with esbuild.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import { build, transform } from 'esbuild';
import { writeAppManifest } from './app-manifest.mjs';
import { measureBundles, formatSizes } from './bundle-size.mjs';
import { formatThemeBytes, writeKeepsakeFonts, writeThemeFonts } from './theme-fonts.mjs';
import { languageTable, loadLocales, moduleSource } from './i18n/catalogues.mjs';
import { localesPlugin } from './i18n/esbuild-plugin.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
// Tests build a copy with other catalogues into a folder of their own (test/helpers/i18n-build.ts).
const dist = process.env.WEDDING_BUILD_OUT ? path.resolve(process.env.WEDDING_BUILD_OUT) : path.join(root, 'dist');
const quiet = process.argv.includes('--quiet');
// The catalogues (locales/*.po), compiled once for both bundles.
const locales = await loadLocales(process.env.WEDDING_LOCALES_DIR || undefined);
for (const p of locales.problems) console.warn(`locales: ${p} (English shows instead)`);

const bundledIcons = {
  name: 'bundled-icons',
  setup(b) {
    const require = createRequire(import.meta.url);
    b.onResolve({ filter: /^(lucide-react\/icons\/|react$)/ }, (args) => ({ path: require.resolve(args.path, { paths: [root] }) }));
  },
};

async function buildServer() {
  // server/media-worker.ts is the processing child process main.js starts (dist/server/media-worker.js);
  // server/db-writer.ts its database writer thread (dist/server/db-writer.js).
  const entries = ['server/main.ts', 'server/media-worker.ts', 'server/face-worker.ts', 'server/db-writer.ts', 'server/backup.ts', 'server/restore.ts', 'server/reset-password.ts'].filter((f) => fs.existsSync(path.join(root, f)));
  await build({
    absWorkingDir: root,
    entryPoints: entries,
    outdir: path.join(dist, 'server'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external', // sharp, better-sqlite3, argon2 … stay in node_modules
    // …but the icons the server draws into HTML come with it, and the React they are defined with:
    // the client's packages (build-time ones), which the image's production node_modules do not hold.
    plugins: [localesPlugin(locales, { shorten: false }), bundledIcons],
    sourcemap: true,
    logLevel: 'warning',
  });
}

async function buildClient() {
  const out = path.join(dist, 'client');
  fs.rmSync(out, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { main: 'client/main.tsx' },
    outdir: path.join(out, 'assets'),
    publicPath: '/assets',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2020', 'safari15', 'chrome100', 'firefox100'],
    minify: true,
    sourcemap: false,
    jsx: 'automatic',
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[name]-[hash]',
    assetNames: '[name]-[hash]',
    loader: { '.woff': 'file', '.woff2': 'file', '.svg': 'file', '.png': 'file' },
    define: { 'process.env.NODE_ENV': '"production"' },
    alias: { 'use-sync-external-store/shim/index.js': './client/vendor/use-sync-external-store.ts' },
    // Licence texts go to a .LEGAL.txt file next to each bundle, linked from it.
    legalComments: 'linked',
    // Letters as they are, not \u escapes: every language's texts stay as small as their UTF-8.
    charset: 'utf8',
    plugins: [localesPlugin(locales, { shorten: true })],
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.entries(result.metafile.outputs);
  // The entry's JS output is the one that names its CSS bundle; without CSS, the .js output.
  const mainJs = outputs.find(([, o]) => o.entryPoint === 'client/main.tsx' && o.cssBundle)?.[0]
    ?? outputs.find(([f, o]) => o.entryPoint === 'client/main.tsx' && f.endsWith('.js'))?.[0];
  const mainCss = outputs.find(([f, o]) => o.entryPoint === 'client/main.tsx' && f.endsWith('.css'))?.[0]
    ?? result.metafile.outputs[mainJs]?.cssBundle;
  const rel = (f) => '/' + path.relative(out, path.join(root, f)).split(path.sep).join('/');
  const template = fs.readFileSync(path.join(root, 'client', 'index.html'), 'utf8');
  const manifestLink = await writeAppManifest(path.join(out, 'assets'), out);
  const themes = await writeThemeFonts(root, path.join(out, 'assets'), out);
  const html = template
    .replace('<!--MANIFEST-->', manifestLink)
    .replace('<!--CSS-->', mainCss ? `<link rel="stylesheet" href="${rel(mainCss)}">` : '')
    .replace('<!--JS-->', `<script type="module" src="${rel(mainJs)}"></script>`);
  fs.writeFileSync(path.join(out, 'index.html'), html);
  fs.writeFileSync(path.join(dist, 'client-meta.json'), JSON.stringify(result.metafile));
  await writeCatalogues(path.join(out, 'assets'));
  precompress(path.join(out, 'assets'));
  if (!quiet) console.log(`${formatSizes(measureBundles(root, dist))}\n${formatThemeBytes(themes)}`);
}

/**
 * Each language's texts other than English, one small file per catalogue part, fetched only by
 * pages in that language (English is in the bundles themselves).
 */
async function writeCatalogues(assets) {
  const { catalogueUrl } = await languageTable();
  for (const [lang] of locales.languages) {
    if (lang === 'en') continue;
    for (const part of locales.parts) {
      if (part === locales.serverPart) continue;
      const { code } = await transform(moduleSource(locales, `${lang}/${part}`, { shorten: true }), { minify: true, format: 'esm', loader: 'js', charset: 'utf8' });
      fs.writeFileSync(path.join(assets, path.basename(catalogueUrl(lang, part, locales.build))), code);
    }
  }
}

/** Writes a .br and a .gz copy of every text asset; the server sends them to browsers that accept them. */
function precompress(dir) {
  for (const name of fs.readdirSync(dir)) {
    if (!/\.(js|css|webmanifest)$/.test(name)) continue;
    const data = fs.readFileSync(path.join(dir, name));
    fs.writeFileSync(path.join(dir, `${name}.br`), zlib.brotliCompressSync(data, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length },
    }));
    fs.writeFileSync(path.join(dir, `${name}.gz`), zlib.gzipSync(data, { level: 9 }));
  }
}

const started = Date.now();
// The theme fonts the film and the book embed (server/keepsakes/fonts.ts), next to the client.
await Promise.all([buildServer(), buildClient(), writeKeepsakeFonts(root, path.join(dist, 'keepsake-fonts'))]);
if (!quiet) console.log(`build: done in ${Date.now() - started} ms`);

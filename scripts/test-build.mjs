// Compiles the test files once with esbuild (into `outdir`, under dist/), so `node --test` runs plain JavaScript
// without loader hooks: through tsx every module a test process loads (about 1,000 per server
// test, kysely alone 264) went through the hooks' thread, 1-2 s of CPU per file and per worker.
//
// Each test file is an entry; what several share (the server, helpers, the client) lands in
// shared chunks, and packages stay in node_modules as Node loads them. `import.meta.url` is
// rewritten per source file so the code finds its files as it does from source:
// - test/, client/, common/, scripts/: their own source location (fixtures, the project root);
// - server/: dist/server/main.js, as in the built server, so the server's workers (media worker,
//   database writer, face worker) start from dist/server like `npm start` runs them, not from
//   source through tsx. `npm test` builds dist/ right before.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { loadLocales } from './i18n/catalogues.mjs';
import { localesPlugin } from './i18n/esbuild-plugin.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SERVER_URL = pathToFileURL(path.join(root, 'dist', 'server', 'main.js')).href;
const serverDir = path.join(root, 'server') + path.sep;

/** Where `import.meta.url` points for a source file (see above). */
function metaUrl(file) {
  return file.startsWith(serverDir) ? SERVER_URL : pathToFileURL(file).href;
}

/**
 * Modules that make a browser-like global scope (happy-dom) before React and the client load
 * (react-dom looks for a DOM once, when it loads). A bundle evaluates its chunks and packages
 * before its own code, so these stay modules of their own, and a test file that reaches one is
 * given it as its very first import.
 */
const SCOPE_SETUP = ['test/helpers/dom.ts', 'test/helpers/admin-dom.ts'].map((f) => path.join(root, f));

function scopeSetupPlugin(outdir) {
  return {
    name: 'scope-setup',
    setup(b) {
      b.onResolve({ filter: /dom\.js$/ }, (args) => {
        const file = path.resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts');
        if (!SCOPE_SETUP.includes(file) || args.kind === 'entry-point') return undefined;
        return { path: compiledPath(file, outdir), external: true };
      });
    },
  };
}

/** Where a source file under test/ lands in `outdir`. */
function compiledPath(file, outdir) {
  return path.join(outdir, path.relative(path.join(root, 'test'), file)).replace(/\.tsx?$/, '.js');
}

const LOADERS = { '.ts': 'ts', '.tsx': 'tsx', '.mts': 'ts', '.js': 'js', '.mjs': 'js', '.jsx': 'jsx' };

function importMetaPlugin() {
  return {
    name: 'import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.(m?[jt]sx?)$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = fs.readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        return { contents: source.replaceAll('import.meta.url', JSON.stringify(metaUrl(args.path))), loader: LOADERS[path.extname(args.path)] };
      });
    },
  };
}

/** Compiles `files` (absolute paths of test files) into `outdir` and returns the compiled file for each. */
export async function buildTests(files, outdir) {
  const locales = await loadLocales();
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: [...files, ...SCOPE_SETUP],
    outbase: path.join(root, 'test'),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    jsx: 'automatic',
    // What client code imports besides code: the tests need its name, not its bytes.
    loader: { '.css': 'empty', '.woff': 'file', '.woff2': 'file', '.svg': 'file', '.png': 'file' },
    sourcemap: 'linked',
    // A failing test's stack names the source file and line (node --enable-source-maps).
    sourcesContent: false,
    plugins: [scopeSetupPlugin(outdir), importMetaPlugin(), localesPlugin(locales, { shorten: false })],
    metafile: true,
    logLevel: 'warning',
  });
  for (const file of files) putScopeSetupFirst(file, compiledPath(file, outdir), metafile, outdir);
  return files.map((f) => compiledPath(f, outdir));
}

function putScopeSetupFirst(source, compiled, metafile, outdir) {
  const setups = new Set(SCOPE_SETUP.map((f) => compiledPath(f, outdir)));
  const seen = new Set();
  const needed = new Set();
  const visit = (input) => {
    if (seen.has(input)) return;
    seen.add(input);
    for (const i of metafile.inputs[input]?.imports ?? []) {
      if (setups.has(i.path)) needed.add(i.path);
      else if (!i.external) visit(i.path);
    }
  };
  visit(path.relative(root, source));
  if (!needed.size) return;
  // On the first line, so the source map's lines still match.
  const first = [...needed].map((f) => `import ${JSON.stringify(f)};`).join('');
  fs.writeFileSync(compiled, first + fs.readFileSync(compiled, 'utf8'));
}

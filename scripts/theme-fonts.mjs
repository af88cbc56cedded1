// Each theme's fonts as one small stylesheet in dist/client/assets, built from the @fontsource
// packages (no CDN: the site works on a LAN without internet). A page links only its theme's
// sheet; every @font-face keeps its unicode-range, so a browser fetches a file only when the
// page has letters from it. Kept: the subsets the shipped languages use (Latin and Latin
// Extended, Cyrillic, Greek, Vietnamese) as WOFF2; scripts a font lacks (Arabic, Hebrew,
// Devanagari, CJK) fall back to the system's fonts. Writes dist/client/themes.json:
// { [theme id]: { css, bytes: { latin, all } } } for the server and the docs.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const KEEP = new Set(['latin', 'latin-ext', 'cyrillic', 'greek', 'vietnamese']);
const FACE = /\/\*[^*]*\*\/\s*@font-face\s*\{([^}]*)\}/g;

const hash = (data) => crypto.createHash('sha256').update(data).digest('hex').slice(0, 8);

/** The @font-face rules of one weight file, the subsets we keep, WOFF2 only, with their font files. */
function faces(root, pkg, file) {
  const dir = path.join(root, 'node_modules', '@fontsource', pkg);
  const cssFile = path.join(dir, `${file}.css`);
  if (!fs.existsSync(cssFile)) throw new Error(`theme fonts: @fontsource/${pkg}/${file}.css is missing (npm ci?)`);
  const out = [];
  for (const [, body] of fs.readFileSync(cssFile, 'utf8').matchAll(FACE)) {
    const woff2 = /url\(\.\/files\/([^)]+\.woff2)\)/.exec(body)?.[1];
    if (!woff2) continue;
    const subset = woff2.slice(pkg.length + 1).replace(/-\d+-(normal|italic)\.woff2$/, '');
    if (!KEEP.has(subset)) continue;
    out.push({ body, subset, font: path.join(dir, 'files', woff2) });
  }
  return out;
}

/** THEMES from common/themes.ts (the one place they are written), bundled for plain Node. */
async function themeTable(root) {
  const r = await build({ absWorkingDir: root, entryPoints: ['common/themes.ts'], bundle: true, format: 'esm', platform: 'neutral', write: false, logLevel: 'warning' });
  return import(`data:text/javascript;base64,${Buffer.from(r.outputFiles[0].text).toString('base64')}`);
}

/** Writes the themes' stylesheets and font files into `assets`; returns what themes.json holds. */
export async function writeThemeFonts(root, assets, clientDir) {
  const { THEMES } = await themeTable(root);
  fs.mkdirSync(assets, { recursive: true });
  const written = new Map();
  const put = (src) => {
    if (!written.has(src)) {
      const data = fs.readFileSync(src);
      const name = `${path.basename(src, '.woff2')}-${hash(data)}.woff2`;
      fs.writeFileSync(path.join(assets, name), data);
      written.set(src, { name, bytes: data.length });
    }
    return written.get(src);
  };
  const table = {};
  for (const theme of THEMES) {
    const rules = [];
    const bytes = { latin: 0, all: 0 };
    for (const face of [theme.serif, theme.sans]) {
      for (const file of face.files) {
        for (const f of faces(root, face.pkg, file)) {
          const { name, bytes: n } = put(f.font);
          const body = f.body
            .replace(/src:[^;]*;/, `src: url(/assets/${name}) format('woff2');`)
            .replace(/\s+/g, ' ')
            .trim();
          rules.push(`@font-face{${body}}`);
          bytes.all += n;
          if (f.subset === 'latin') bytes.latin += n;
        }
      }
    }
    const css = rules.join('\n') + '\n';
    const file = `theme-${theme.id}-${hash(css)}.css`;
    fs.writeFileSync(path.join(assets, file), css);
    table[theme.id] = { css: `/assets/${file}`, bytes };
  }
  fs.writeFileSync(path.join(clientDir, 'themes.json'), JSON.stringify(table, null, 2));
  return table;
}

/**
 * The font files the film and the book draw with (keepsakeWeights: one weight of each theme's
 * serif and sans), every subset, as WOFF: PDFKit's subsetter cannot read WOFF2, and ffmpeg's
 * drawtext (FreeType) reads WOFF. Laid out as the packages are (`<pkg>/<weight>.css` naming
 * `./files/*.woff`), in `out` (dist/keepsake-fonts): the image has no @fontsource packages.
 * Returns the bytes written.
 */
export async function writeKeepsakeFonts(root, out) {
  const { THEMES, keepsakeWeights } = await themeTable(root);
  fs.rmSync(out, { recursive: true, force: true });
  let bytes = 0;
  const done = new Set();
  for (const theme of THEMES) {
    const weights = keepsakeWeights(theme);
    for (const [face, weight] of [[theme.serif, weights.serif], [theme.sans, weights.sans]]) {
      const key = `${face.pkg}/${weight}`;
      if (done.has(key)) continue;
      done.add(key);
      const src = path.join(root, 'node_modules', '@fontsource', face.pkg);
      const cssFile = path.join(src, `${weight}.css`);
      if (!fs.existsSync(cssFile)) throw new Error(`keepsake fonts: @fontsource/${key}.css is missing (npm ci?)`);
      const dest = path.join(out, face.pkg);
      fs.mkdirSync(path.join(dest, 'files'), { recursive: true });
      const rules = [];
      for (const m of fs.readFileSync(cssFile, 'utf8').matchAll(/@font-face\s*\{([^}]*)\}/g)) {
        const woff = /url\(\.\/files\/([^)]+\.woff)\)/.exec(m[1])?.[1];
        if (!woff) continue;
        const data = fs.readFileSync(path.join(src, 'files', woff));
        fs.writeFileSync(path.join(dest, 'files', woff), data);
        bytes += data.length;
        rules.push(`@font-face {${m[1].replace(/src:[^;]*;/, `src: url(./files/${woff}) format('woff');`)}}`);
      }
      if (!rules.length) throw new Error(`keepsake fonts: @fontsource/${key}.css names no WOFF file`);
      fs.writeFileSync(path.join(dest, `${weight}.css`), rules.join('\n\n') + '\n');
    }
  }
  return bytes;
}

/** "theme fonts: sage 61 KB (English pages 41 KB) ..." for the build's output. */
export function formatThemeBytes(table) {
  const kb = (n) => `${Math.round(n / 1024)} KB`;
  return 'theme fonts (all subsets / what an English page fetches):\n' + Object.entries(table).map(([id, t]) => `  ${id.padEnd(9)} ${kb(t.bytes.all).padStart(7)} / ${kb(t.bytes.latin)}`).join('\n');
}

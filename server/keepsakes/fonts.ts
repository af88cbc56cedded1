import fs from 'node:fs';
import path from 'node:path';
import { keepsakeWeights, themeById, type FontFace as ThemeFont } from '../../common/themes.js';
import { appRoot, clientDir } from '../paths.js';
import type { FontFile, KeepsakeFace, KeepsakeFonts } from '../processing/keepsake-plan.js';

export type { FontFile, KeepsakeFace, KeepsakeFonts };


const FACE = /@font-face\s*\{([^}]*)\}/g;

function parseRanges(value: string | undefined): [number, number][] {
  if (!value) return [[0, 0x10ffff]];
  return value.split(',').map((part) => {
    const [a, b] = part.trim().replace(/^U\+/i, '').split('-');
    if (a.includes('?')) return [parseInt(a.replace(/\?/g, '0'), 16), parseInt(a.replace(/\?/g, 'F'), 16)];
    return [parseInt(a, 16), parseInt(b ?? a, 16)];
  });
}

interface Rule {
  family: string;
  weight: string;
  style: string;
  url: string;
  ranges: [number, number][];
}

function rules(css: string): Rule[] {
  const out: Rule[] = [];
  for (const [, body] of css.matchAll(FACE)) {
    const prop = (name: string) => new RegExp(`${name}\\s*:\\s*([^;]+);?`, 'i').exec(body)?.[1].trim();
    const url = /url\(([^)]+\.woff)\)/.exec(body)?.[1].replace(/^['"]|['"]$/g, '');
    if (!url) continue;
    out.push({ family: (prop('font-family') ?? '').replace(/^['"]|['"]$/g, ''), weight: prop('font-weight') ?? '400', style: prop('font-style') ?? 'normal', url, ranges: parseRanges(prop('unicode-range')) });
  }
  return out;
}

/** Latin first: a character several files hold is taken from the first. */
const order = (f: string) => (/-latin-\d/.test(f) ? 0 : /-latin-ext-/.test(f) ? 1 : 2);

/**
 * The build's copy of the theme fonts keepsakes draw with (scripts/theme-fonts.mjs,
 * writeKeepsakeFonts), next to the client: the Docker image has no @fontsource packages. WOFF,
 * not WOFF2: the PDF writer's font subsetter reads WOFF whole, and drawtext (FreeType) reads it.
 */
export const builtFontsDir = () => path.join(clientDir(), '..', 'keepsake-fonts');

/** Where fonts are looked for: the build's copy first, then the packages themselves (running from source). */
const fontRoots = () => [builtFontsDir(), path.join(appRoot(), 'node_modules', '@fontsource')];

/** The files of one weight of a theme's face, Latin first. */
function faceFiles(face: ThemeFont, weight: string, roots: string[]): FontFile[] {
  for (const root of roots) {
    const pkgDir = path.join(root, face.pkg);
    const css = path.join(pkgDir, `${weight}.css`);
    if (!fs.existsSync(css)) continue;
    return rules(fs.readFileSync(css, 'utf8'))
      .map((r) => ({ file: path.join(pkgDir, r.url), ranges: r.ranges }))
      .filter((f) => fs.existsSync(f.file))
      .sort((a, b) => order(a.file) - order(b.file));
  }
  return [];
}

/** The theme's two faces as font files the PDF embeds and ffmpeg's drawtext draws with. */
export function keepsakeFonts(themeId: string, roots: string[] = fontRoots()): KeepsakeFonts {
  const theme = themeById(themeId);
  const weights = keepsakeWeights(theme);
  const face = (f: ThemeFont, weight: string): KeepsakeFace => {
    const files = faceFiles(f, weight, roots);
    // Without them the book would have no text and the film no titles: say so instead.
    if (!files.length) throw new Error(`The font ${f.family} (${f.pkg}/${weight}.css) is in none of ${roots.join(', ')}: run the build (it copies it to dist/keepsake-fonts)`);
    return { family: f.family, files };
  };
  return { serif: face(theme.serif, weights.serif), sans: face(theme.sans, weights.sans) };
}

export const covers = (f: FontFile, cp: number) => f.ranges.some(([a, b]) => cp >= a && cp <= b);

/** The file that holds most of `text`'s letters (drawtext takes one file per text). */
export function bestFile(face: KeepsakeFace, text: string): string | undefined {
  let best: FontFile | undefined;
  let bestCount = -1;
  for (const f of face.files) {
    let n = 0;
    for (const ch of text) if (/\S/.test(ch) && covers(f, ch.codePointAt(0)!)) n++;
    if (n > bestCount) {
      best = f;
      bestCount = n;
    }
  }
  return best?.file;
}

/** `text` cut into runs, each with the file that holds its letters (spaces and marks go with what is around them). */
export function runs(face: KeepsakeFace, text: string): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  const first = face.files[0]?.file;
  if (!first) return [];
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const last = out[out.length - 1];
    const lastFile = last && face.files.find((f) => f.file === last.file);
    const file = lastFile && covers(lastFile, cp) ? lastFile.file : (face.files.find((f) => covers(f, cp))?.file ?? first);
    if (last && last.file === file) last.text += ch;
    else out.push({ file, text: ch });
  }
  return out;
}

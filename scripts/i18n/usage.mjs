// Which catalogue keys the code uses. A key is written in the code as a whole string literal
// ('gallery.empty.title'), never built from pieces, so this scan (and the build's short ids)
// finds every one; a key chosen at run time is picked from a table of such literals.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './catalogues.mjs';

const SOURCE_DIRS = ['client', 'common', 'server'];
const LITERAL = /(['"`])([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)\1/g;
/** A template literal that starts like a key and has a placeholder: a key built from pieces. */
const BUILT = /`([a-z][a-z0-9_]*)\.[a-z0-9_.]*\$\{/g;

function walk(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return walk(p);
    return /\.(ts|tsx)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/**
 * Every use of a key in the source: [{key, file, line}] for literals whose first segment is one
 * of `namespaces` (the first segments of en.po's keys), and `built` for keys made at run time.
 */
export function keyUses(namespaces) {
  const uses = [];
  const built = [];
  for (const file of SOURCE_DIRS.flatMap((d) => walk(path.join(ROOT, d)))) {
    const rel = path.relative(ROOT, file).split(path.sep).join('/');
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    lines.forEach((text, i) => {
      // Imports, and comments (a key named in a comment is not a use of it).
      if (/^\s*(import|export .* from|\*|\/\/|\/\*)/.test(text)) return;
      for (const m of text.matchAll(LITERAL)) if (namespaces.has(m[2].split('.')[0])) uses.push({ key: m[2], file: rel, line: i + 1 });
      for (const m of text.matchAll(BUILT)) if (namespaces.has(m[1])) built.push({ text: m[0], file: rel, line: i + 1 });
    });
  }
  return { uses, built };
}

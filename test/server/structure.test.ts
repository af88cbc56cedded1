import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The server's shape, read from its source (nothing runs): its folders depend on each other one
 * way only, so each can be read and tested from the ground up, and only the HTTP layer speaks HTTP
 * (docs/how-it-is-built.md). Type-only imports count: they tie two folders together as much.
 */
const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../server');

interface Source {
  /** The path inside server/, with forward slashes. */
  file: string;
  text: string;
  /** Every module it names: imports and re-exports, type-only ones and import() included. */
  imports: string[];
}

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

const sources: Source[] = walk(SERVER)
  .sort()
  .map((p) => {
    const text = fs.readFileSync(p, 'utf8');
    // TypeScript's own pre-scan: comments and strings that merely look like imports are skipped.
    const imports = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
    return { file: path.relative(SERVER, p).split(path.sep).join('/'), text, imports };
  });

/** The top-level folder a path inside server/ is in; files directly in server/ are in none. */
const folderOf = (file: string): string | null => (file.includes('/') && !file.startsWith('../') ? file.split('/')[0] : null);

/** Routes, middleware, app.ts and http/: the only files that may know about Express and requests. */
const speaksHttp = (file: string) => file.endsWith('.routes.ts') || file.endsWith('.middleware.ts') || file === 'app.ts' || file.startsWith('http/');

const where = (s: Source, spec: string) => `server/${s.file} imports '${spec}'`;

test('no two server folders import each other (type-only imports count)', () => {
  // "from -> to" -> the imports that make the edge
  const edges = new Map<string, string[]>();
  for (const s of sources) {
    const from = folderOf(s.file);
    if (!from) continue;
    for (const spec of s.imports.filter((i) => i.startsWith('.'))) {
      const to = folderOf(path.posix.join(path.posix.dirname(s.file), spec));
      if (!to || to === from) continue;
      const key = `${from} -> ${to}`;
      edges.set(key, [...(edges.get(key) ?? []), where(s, spec)]);
    }
  }
  const both: string[] = [];
  for (const [key, there] of edges) {
    const [a, b] = key.split(' -> ');
    const back = edges.get(`${b} -> ${a}`);
    if (a < b && back) both.push(`${a} and ${b} import each other:\n    ${[...there, ...back].join('\n    ')}`);
  }
  assert.ok(!both.length, `\n${both.join('\n')}\n`);
});

test('only routes, middleware, app.ts and http/ import express (types included)', () => {
  const isExpress = (spec: string) => spec === 'express' || spec.startsWith('express/') || spec === 'express-serve-static-core';
  const offenders = sources.filter((s) => !speaksHttp(s.file)).flatMap((s) => s.imports.filter(isExpress).map((spec) => where(s, spec)));
  assert.ok(!offenders.length, `\n${offenders.join('\n')}\n`);
});

test('only routes, middleware, app.ts and http/ read a request (req.headers, req.ip, ...)', () => {
  // What only an HTTP request has: the worker processes' own messages are called `req` too.
  const HTTP_PARTS = new Set(['headers', 'ip', 'ips', 'get', 'header', 'protocol', 'host', 'hostname', 'secure', 'session', 'sessionID', 'cookies', 'signedCookies', 'socket', 'query', 'params', 'body', 'originalUrl', 'baseUrl', 'method', 'xhr']);
  const offenders: string[] = [];
  // Parsing is the slow part: files that never name a req or a request are passed over.
  for (const s of sources.filter((x) => !speaksHttp(x.file) && /\breq(uest)?\./.test(x.text))) {
    const tree = ts.createSourceFile(s.file, s.text, ts.ScriptTarget.Latest);
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && /^req(uest)?$/.test(node.expression.text) && HTTP_PARTS.has(node.name.text)) {
        const line = tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1;
        offenders.push(`server/${s.file}:${line} reads ${node.getText(tree)}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(tree);
  }
  assert.ok(!offenders.length, `\n${offenders.join('\n')}\n`);
});

// The built client's JavaScript and CSS go to phones compressed: brotli or gzip copies written
// by the build, chosen by Accept-Encoding; the plain file for anyone who accepts neither.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';
import zlib from 'node:zlib';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
before(async () => {
  // `npm test` builds the client first; these tests are about that build.
  assert.ok(fs.existsSync(path.resolve('dist/client/index.html')), 'run `node scripts/build.mjs` first');
  s = await startTestServer();
});
after(() => s.close());

/** A raw GET (fetch would decompress on its own and hide what was sent). */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

async function builtAssets(): Promise<{ js: string; css: string }> {
  const html = (await get(`${s.url}/`)).body.toString();
  const js = html.match(/src="(\/assets\/main-[^"]+\.js)"/)?.[1];
  const css = html.match(/href="(\/assets\/main-[^"]+\.css)"/)?.[1];
  assert.ok(js && css, 'index.html names the entry script and stylesheet');
  return { js, css };
}

test('a browser that accepts brotli gets the brotli copy, and it decodes to the same script', async () => {
  const { js } = await builtAssets();
  const plain = await get(`${s.url}${js}`, { 'Accept-Encoding': 'identity' });
  const br = await get(`${s.url}${js}`, { 'Accept-Encoding': 'gzip, deflate, br' });
  assert.equal(br.status, 200);
  assert.equal(br.headers['content-encoding'], 'br');
  assert.match(br.headers['content-type'] ?? '', /javascript/);
  assert.match(br.headers.vary ?? '', /Accept-Encoding/i);
  assert.match(br.headers['cache-control'] ?? '', /immutable/);
  assert.ok(br.body.length < plain.body.length / 2, `brotli ${br.body.length} bytes vs plain ${plain.body.length}`);
  assert.deepEqual(zlib.brotliDecompressSync(br.body), plain.body);
});

test('over plain HTTP (gzip, deflate only) the gzip copy goes out', async () => {
  const { js, css } = await builtAssets();
  for (const file of [js, css]) {
    const plain = await get(`${s.url}${file}`);
    const gz = await get(`${s.url}${file}`, { 'Accept-Encoding': 'gzip, deflate' });
    assert.equal(gz.headers['content-encoding'], 'gzip', file);
    assert.match(gz.headers['content-type'] ?? '', file.endsWith('.css') ? /text\/css/ : /javascript/);
    assert.deepEqual(zlib.gunzipSync(gz.body), plain.body, file);
  }
});

test('without Accept-Encoding, or refusing both, the plain file is sent and still says it varies', async () => {
  const { js } = await builtAssets();
  const cases: Record<string, string>[] = [{}, { 'Accept-Encoding': 'br;q=0, gzip;q=0' }];
  for (const headers of cases) {
    const r = await get(`${s.url}${js}`, headers);
    assert.equal(r.status, 200);
    assert.equal(r.headers['content-encoding'], undefined);
    assert.match(r.headers.vary ?? '', /Accept-Encoding/i);
    assert.match(r.body.subarray(0, 200).toString(), /[a-zA-Z]/);
  }
});

test('assets that have no compressed copy (fonts, icons) and unknown names are served as before', async () => {
  const assets = fs.readdirSync(path.resolve('dist/client/assets'));
  const font = assets.find((n) => n.endsWith('.woff2'));
  assert.ok(font);
  const r = await get(`${s.url}/assets/${font}`, { 'Accept-Encoding': 'gzip, br' });
  assert.equal(r.status, 200);
  assert.equal(r.headers['content-encoding'], undefined);
  assert.equal(r.body.length, fs.statSync(path.resolve('dist/client/assets', font)).size);
  const missing = await get(`${s.url}/assets/main-NOPE.js`, { 'Accept-Encoding': 'gzip, br' });
  assert.equal(missing.headers['content-encoding'], undefined);
});

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import jsQR from 'jsqr';
import sharp from 'sharp';
import { startTestServer, TestClient } from '../helpers/server.js';

/** Renders the SVG the way a printer would (rasterised) and reads it back like a phone camera. */
async function decodeSvg(svg: string): Promise<string | undefined> {
  const { data, info } = await sharp(Buffer.from(svg), { density: 300 }).resize(600).flatten({ background: '#fff' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data;
}

let withUrl: Awaited<ReturnType<typeof startTestServer>>;
let plain: Awaited<ReturnType<typeof startTestServer>>;
before(async () => {
  [withUrl, plain] = await Promise.all([startTestServer({ PUBLIC_URL: 'https://our-wedding.example/' }), startTestServer({ TRUST_PROXY: 'loopback' })]);
});
after(() => Promise.all([withUrl.close(), plain.close()]));

test('the QR code carries PUBLIC_URL/live when it is set', async () => {
  const c = new TestClient(withUrl.url);
  const res = await c.fetch('/api/qr.svg');
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^image\/svg\+xml/);
  const svg = await res.text();
  assert.match(svg, /^<svg[^>]+xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.equal(await decodeSvg(svg), 'https://our-wedding.example/live');
  const u = await c.get('/api/public-url');
  assert.deepEqual(u.body, { success: true, url: 'https://our-wedding.example', live_url: 'https://our-wedding.example/live' });
});

test('without PUBLIC_URL the QR code carries the address the request came to', async () => {
  const c = new TestClient(plain.url);
  assert.equal(await decodeSvg(await (await c.fetch('/api/qr.svg')).text()), `${plain.url}/live`);
  assert.equal((await c.get('/api/public-url')).body.live_url, `${plain.url}/live`);
  // Behind a trusted proxy (TRUST_PROXY=loopback here), the forwarded scheme and host are the public address.
  const fwd = await c.fetch('/api/qr.svg', { headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'photos.example.org' } });
  assert.equal(await decodeSvg(await fwd.text()), 'https://photos.example.org/live');
});

test('a forged Host header is refused with a readable 400, not a QR code for it', async () => {
  const c = new TestClient(plain.url);
  const r = await c.json('GET', '/api/public-url', undefined, { 'X-Forwarded-Host': 'evil.example/path?x=1' });
  assert.equal(r.status, 400);
  assert.equal(r.body.success, false);
  assert.match(r.body.error, /PUBLIC_URL/);
  assert.equal(r.body.code, 'invalid_input');
});

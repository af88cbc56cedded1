import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maskUrl } from '../../server/settings/notify-settings.js';
import { relyingParty } from '../../server/security/relying-party.js';

test('the relying party is PUBLIC_URL\'s host, usable only at that address', () => {
  const at = (protocol: string, host: string) => relyingParty('https://photos.example', { protocol, host });
  assert.deepEqual(at('https', 'photos.example').rp, { rpID: 'photos.example', origin: 'https://photos.example' });
  assert.deepEqual(at('http', '192.168.1.5:3000').support, { available: false, reason: 'other_address', rp_id: null, use_at: 'https://photos.example' });
  assert.equal(relyingParty('http://photos.example', { protocol: 'http', host: 'photos.example' }).support.reason, 'insecure');
});

test('without PUBLIC_URL the request\'s host is the relying party when it is HTTPS with a name, or localhost', () => {
  const at = (protocol: string, host: string) => relyingParty(undefined, { protocol, host });
  assert.deepEqual(at('http', 'localhost:3000').rp, { rpID: 'localhost', origin: 'http://localhost:3000' });
  assert.deepEqual(at('https', 'wedding.example').rp, { rpID: 'wedding.example', origin: 'https://wedding.example' });
  for (const [p, h] of [['http', 'wedding.lan:3000'], ['http', '192.168.1.5:3000'], ['https', '192.168.1.5'], ['https', '[::1]:3000']]) {
    assert.deepEqual(at(p, h).support, { available: false, reason: 'insecure', rp_id: null, use_at: null }, `${p}://${h}`);
  }
  assert.equal(at('http', '').support.reason, 'insecure');
});

test('masked addresses keep where messages go and hide passwords, topics and tokens', () => {
  assert.equal(maskUrl('https://ntfy.sh/our-wedding-7f3k', false), 'https://ntfy.sh/••••');
  assert.equal(maskUrl('https://hooks.slack.com/services/T0/B0/XYZ?x=1', false), 'https://hooks.slack.com/••••');
  assert.equal(maskUrl('https://ntfy.example', false), 'https://ntfy.example');
  assert.equal(maskUrl('smtp://me%40x.com:p%40ss@mail.example.com:587', true), 'smtp://me%40x.com:••••@mail.example.com:587');
  assert.equal(maskUrl('https://user:pw@ntfy.example/t', false), 'https://user:••••@ntfy.example/••••');
  assert.equal(maskUrl(null, false), null);
});

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError, describeConfig, loadConfig } from '../../server/config.js';

test('defaults match CONTRACT: port 3000, host 0.0.0.0, ./data, admin, uploads on, 2 GB', () => {
  const c = loadConfig({});
  assert.equal(c.port, 3000);
  assert.equal(c.host, '0.0.0.0');
  assert.equal(c.dataDir, path.resolve('./data'));
  assert.equal(c.adminUsername, 'admin');
  assert.equal(c.adminPassword, undefined);
  assert.equal(c.uploadsEnabled, true);
  assert.equal(c.maxUploadBytes, 2 * 1024 ** 3);
  assert.equal(c.storageLimitBytes, undefined);
  assert.equal(c.trustProxy, false);
  assert.equal(c.maxUploadRequests, 300);
  assert.equal(c.maxEventStreams, 500);
  assert.ok(Object.isFrozen(c));
});

test('every variable is parsed', () => {
  const c = loadConfig({
    PORT: '8080',
    HOST: '127.0.0.1',
    DATA_DIR: '/tmp/x',
    ADMIN_USERNAME: 'root',
    ADMIN_PASSWORD: 'longenough',
    SESSION_SECRET: 'a'.repeat(32),
    COUPLE_NAMES: 'Anna & Ben',
    UPLOADS_ENABLED: 'false',
    STORAGE_LIMIT_GB: '1.5',
    TRUST_PROXY: 'true',
    MAX_UPLOAD_GB: '4',
    PUBLIC_URL: 'https://our-wedding.example/',
    FFMPEG_PATH: '/usr/bin/ffmpeg',
    MAX_UPLOAD_REQUESTS: '40',
    MAX_EVENT_STREAMS: '12',
  });
  assert.equal(c.port, 8080);
  assert.deepEqual(c.coupleNames, ['Anna', 'Ben']);
  assert.equal(c.uploadsEnabled, false);
  assert.equal(c.storageLimitBytes, Math.round(1.5 * 1024 ** 3));
  assert.equal(c.trustProxy, true);
  assert.equal(c.maxUploadBytes, 4 * 1024 ** 3);
  assert.equal(c.publicUrl, 'https://our-wedding.example');
  assert.equal(c.ffprobePath, '/usr/bin/ffprobe');
  assert.equal(c.maxUploadRequests, 40);
  assert.equal(c.maxEventStreams, 12);
});

test('a bad start names every bad variable at once', () => {
  try {
    loadConfig({ PORT: 'eighty', UPLOADS_ENABLED: 'maybe', STORAGE_LIMIT_GB: '-1', ADMIN_PASSWORD: 'short', PUBLIC_URL: 'ftp://x', COUPLE_NAMES: 'Just One' });
    assert.fail('should throw');
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    for (const name of ['PORT', 'UPLOADS_ENABLED', 'STORAGE_LIMIT_GB', 'ADMIN_PASSWORD', 'PUBLIC_URL', 'COUPLE_NAMES']) {
      assert.match(err.message, new RegExp(name), `${name} is named`);
    }
    assert.equal(err.problems.length, 6);
  }
});

test('the start-up description masks secrets', () => {
  const d = describeConfig(loadConfig({ ADMIN_PASSWORD: 'supersecret1', SESSION_SECRET: 'x'.repeat(20) }));
  const text = JSON.stringify(d);
  assert.ok(!text.includes('supersecret1'));
  assert.ok(!text.includes('x'.repeat(20)));
  assert.equal(d.ADMIN_PASSWORD, '***');
});

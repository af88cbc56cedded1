import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cookieValue, matchAcceptLanguage, matchTag, negotiateLanguage } from '../../server/i18n/negotiate.js';

const SHIPPED = ['en', 'es', 'de', 'pt', 'zh', 'he'];
const ask = (r: Partial<Parameters<typeof negotiateLanguage>[0]>) => negotiateLanguage({ fallback: 'en', shipped: SHIPPED, ...r });

test('?lang= wins over the cookie, the cookie over Accept-Language, Accept-Language over the default', () => {
  const all = { query: 'es', cookie: 'de', acceptLanguage: 'pt-BR', fallback: 'he' };
  assert.deepEqual(ask(all), { language: 'es', source: 'query' });
  assert.deepEqual(ask({ ...all, query: undefined }), { language: 'de', source: 'cookie' });
  assert.deepEqual(ask({ ...all, query: undefined, cookie: undefined }), { language: 'pt', source: 'header' });
  assert.deepEqual(ask({ fallback: 'he' }), { language: 'he', source: 'default' });
});

test('unknown values are ignored at every step and the next source decides', () => {
  assert.deepEqual(ask({ query: 'xx', cookie: 'de' }), { language: 'de', source: 'cookie' });
  assert.deepEqual(ask({ query: 'fr', cookie: 'klingon', acceptLanguage: 'es-MX' }), { language: 'es', source: 'header' }, 'fr is a real code but not shipped');
  assert.deepEqual(ask({ query: '../etc', cookie: '', acceptLanguage: 'tlh, i-klingon' }), { language: 'en', source: 'default' });
  assert.deepEqual(ask({ query: ['de', 'es'] }), { language: 'de', source: 'query' }, 'a repeated ?lang= takes the first');
  assert.deepEqual(ask({ fallback: 'fr' }), { language: 'en', source: 'default' }, 'a default that is not shipped falls back to English');
});

test('region and script variants reach the shipped language: pt-BR -> pt, zh-CN and zh-Hans -> zh, but not traditional Chinese', () => {
  for (const [tag, lang] of [
    ['pt-BR', 'pt'],
    ['pt_PT', 'pt'],
    ['zh-CN', 'zh'],
    ['zh-Hans', 'zh'],
    ['zh-Hans-CN', 'zh'],
    ['ZH-cn', 'zh'],
    ['de-AT', 'de'],
    ['iw', 'he'],
  ] as const)
    assert.equal(matchTag(tag, SHIPPED), lang, tag);
  for (const tag of ['zh-TW', 'zh-Hant', 'zh-HK', 'fr-CA', '', '*', 'e', 'en--'] as const) assert.equal(matchTag(tag, SHIPPED), undefined, tag);
});

test('Accept-Language honours q-values and order, and skips q=0 and languages not shipped', () => {
  assert.equal(matchAcceptLanguage('fr-FR, fr;q=0.9, de;q=0.8, en;q=0.7', SHIPPED), 'de');
  assert.equal(matchAcceptLanguage('en;q=0.5, es;q=0.9', SHIPPED), 'es');
  assert.equal(matchAcceptLanguage('de;q=0, es;q=0.1', SHIPPED), 'es');
  assert.equal(matchAcceptLanguage('es, de', SHIPPED), 'es', 'equal weights keep the order given');
  assert.equal(matchAcceptLanguage('zh-TW, zh-CN;q=0.8', SHIPPED), 'zh');
  assert.equal(matchAcceptLanguage('*', SHIPPED), undefined);
  assert.equal(matchAcceptLanguage('fr;q=abc, it', SHIPPED), undefined);
  assert.equal(matchAcceptLanguage(undefined, SHIPPED), undefined);
});

test('the cookie is read from the Cookie header among others', () => {
  assert.equal(cookieValue('wedding.sid=abc; wedding_lang=de; other=1', 'wedding_lang'), 'de');
  assert.equal(cookieValue('wedding_langx=de', 'wedding_lang'), undefined);
  assert.equal(cookieValue(undefined, 'wedding_lang'), undefined);
});

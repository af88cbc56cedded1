import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Message } from '../../server/notifications/channels.js';
import { Notifier, NOTIFY_EVERY_MS } from '../../server/notifications/notifier.js';
import { ManualClock } from '../helpers/manual-clock.js';

const MIN = 60_000;

function setup() {
  const clock = new ManualClock(Date.UTC(2026, 5, 7, 16));
  const sent: Message[] = [];
  const notifier = new Notifier({ clock, deliver: (m) => sent.push(m), siteUrl: () => 'https://photos.example', couple: async () => 'Emma & James' });
  return { clock, sent, notifier };
}
/** Lets the notifier's promises (reading counts and names) settle. */
const settle = () => new Promise((r) => setImmediate(r));

test('photos waiting: the first goes out at once, then at most one message per 15 minutes with the count at that time', async () => {
  const { clock, sent, notifier } = setup();
  let waiting = 1;
  notifier.waiting('photos', async () => waiting);
  await settle();
  assert.equal(sent.length, 1);
  assert.deepEqual({ ...sent[0] }, {
    event: 'photos_waiting',
    title: 'Emma & James: Photos waiting for approval',
    text: '1 photo is waiting for your approval.',
    lang: 'en',
    count: 1,
    url: 'https://photos.example/admin/photos?mode=queue',
  });
  for (let i = 0; i < 5; i++) {
    waiting++;
    notifier.waiting('photos', async () => waiting);
    clock.advance(2 * MIN);
    await settle();
  }
  assert.equal(sent.length, 1, 'nothing more within the 15 minutes');
  clock.advance(NOTIFY_EVERY_MS - 10 * MIN - 1);
  await settle();
  assert.equal(sent.length, 1, 'not a millisecond early');
  clock.advance(1);
  await settle();
  assert.equal(sent.length, 2);
  assert.equal(sent[1].count, 6);
  assert.equal(sent[1].text, '6 photos are waiting for your approval.');
  // Nothing new: nothing more, however long.
  clock.advance(3 * NOTIFY_EVERY_MS);
  await settle();
  assert.equal(sent.length, 2);
});

test('a held message is dropped when nothing waits any more by its time', async () => {
  const { clock, sent, notifier } = setup();
  let waiting = 2;
  notifier.waiting('photos', async () => waiting);
  await settle();
  notifier.waiting('photos', async () => waiting);
  waiting = 0; // all approved meanwhile
  clock.advance(NOTIFY_EVERY_MS);
  await settle();
  assert.equal(sent.length, 1);
  // And the next one after that quiet spell goes out at once.
  waiting = 1;
  clock.advance(NOTIFY_EVERY_MS);
  notifier.waiting('photos', async () => waiting);
  await settle();
  assert.equal(sent.length, 2);
});

test('photos and guestbook messages are held separately', async () => {
  const { sent, notifier } = setup();
  notifier.waiting('photos', async () => 3);
  notifier.waiting('messages', async () => 1);
  await settle();
  assert.deepEqual(sent.map((m) => [m.event, m.count, m.url]), [
    ['photos_waiting', 3, 'https://photos.example/admin/photos?mode=queue'],
    ['messages_waiting', 1, 'https://photos.example/admin/guestbook'],
  ]);
  assert.equal(sent[1].text, '1 guestbook message is waiting for your approval.');
});

test('refused uploads and failed files are counted into the next message', async () => {
  const { clock, sent, notifier } = setup();
  notifier.uploadRefused();
  notifier.processingFailed('IMG_0001.HEIC');
  await settle();
  assert.deepEqual(sent.map((m) => [m.event, m.count]), [['storage_full', 1], ['processing_failed', 1]]);
  assert.match(sent[1].text, /"IMG_0001.HEIC" could not be processed/);
  for (let i = 0; i < 4; i++) notifier.uploadRefused();
  notifier.processingFailed('a.mov');
  notifier.processingFailed('b.mov');
  clock.advance(NOTIFY_EVERY_MS);
  await settle();
  assert.deepEqual(sent.slice(2).map((m) => [m.event, m.count]), [['storage_full', 4], ['processing_failed', 2]]);
  assert.equal(sent[2].text, '4 uploads were refused because there is no room left. Free some space or raise the storage limit.');
});

test('storage is told once as it passes 80% and once past 95%, again only after it went back down', async () => {
  const { sent, notifier } = setup();
  const gb = (b: number) => `${b} B`;
  const check = async (share: number) => {
    notifier.storage(share * 1000, 1000, gb);
    await settle();
  };
  await check(0.5);
  await check(0.79);
  assert.equal(sent.length, 0);
  await check(0.81);
  await check(0.85);
  assert.deepEqual(sent.map((m) => m.event), ['storage_80']);
  assert.equal(sent[0].text, 'Photos and videos now take 81% of the space set aside for them (810 B of 1000 B).');
  await check(0.96);
  await check(0.97);
  assert.deepEqual(sent.map((m) => m.event), ['storage_80', 'storage_95']);
  await check(0.7);
  await check(0.82);
  assert.deepEqual(sent.map((m) => m.event), ['storage_80', 'storage_95', 'storage_80']);
});

test('jumping straight past 95% sends one message, not two', async () => {
  const { sent, notifier } = setup();
  notifier.storage(990, 1000, String);
  await settle();
  assert.deepEqual(sent.map((m) => m.event), ['storage_95']);
});

test('a missing tool is told once per tool', async () => {
  const { sent, notifier } = setup();
  notifier.toolMissing('ffmpeg');
  notifier.toolMissing('ffmpeg');
  notifier.toolMissing('heif-convert');
  await settle();
  assert.deepEqual(sent.map((m) => m.text.split(' ')[0]), ['ffmpeg', 'heif-convert']);
});

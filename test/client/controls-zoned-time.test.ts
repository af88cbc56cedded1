// The settings page's date and time pickers are in the wedding's time zone, whatever the browser's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatInZone, joinInZone, splitInZone } from '../../client/components/zoned-time.js';

test('a picked date and time becomes ISO 8601 with the zone offset of that day', () => {
  assert.equal(joinInZone('2025-06-07', '16:30', 'Europe/Berlin'), '2025-06-07T16:30:00+02:00');
  assert.equal(joinInZone('2025-01-07', '16:30', 'Europe/Berlin'), '2025-01-07T16:30:00+01:00');
  assert.equal(joinInZone('2025-06-07', '16:30', 'America/New_York'), '2025-06-07T16:30:00-04:00');
  assert.equal(joinInZone('2025-06-07', '09:15', 'Asia/Kolkata'), '2025-06-07T09:15:00+05:30');
  assert.equal(joinInZone('2025-06-07', '', 'UTC'), null);
  assert.equal(joinInZone('', '10:00', 'UTC'), null);
});

test('a stored time shows in the pickers as the clock in the wedding zone reads it', () => {
  assert.deepEqual(splitInZone('2025-06-07T14:30:00Z', 'Europe/Berlin'), { date: '2025-06-07', time: '16:30' });
  assert.deepEqual(splitInZone('2025-06-07T16:30:00+02:00', 'America/New_York'), { date: '2025-06-07', time: '10:30' });
  assert.deepEqual(splitInZone('2025-06-08T02:30:00+02:00', 'America/New_York'), { date: '2025-06-07', time: '20:30' });
  assert.deepEqual(splitInZone(null, 'UTC'), { date: '', time: '' });
  // Round trip, also on the day the clocks go forward.
  for (const [d, t] of [['2025-03-30', '03:30'], ['2025-10-26', '01:15'], ['2025-06-07', '23:59']] as const) {
    const iso = joinInZone(d, t, 'Europe/Berlin')!;
    assert.deepEqual(splitInZone(iso, 'Europe/Berlin'), { date: d, time: t }, iso);
  }
});

test('the gallery says its opening time in the wedding zone', () => {
  const text = formatInZone('2026-06-07T18:00:00Z', 'Europe/Berlin');
  assert.match(text, /2026/);
  assert.match(text, /20[:.]00|8[:.]00/);
});

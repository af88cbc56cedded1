// Which database copies the bucket keeps: the newest 24, and the newest of each day for 30 days.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { copiesToKeep, dbCopyName, dbCopyTime } from '../../server/offsite/db-copies.js';

test('a copy is named by its UTC time, to the millisecond, and read back', () => {
  const at = new Date('2026-06-20T22:15:03.123Z');
  assert.equal(dbCopyName(at), 'database/wedding-20260620T221503123Z.db.gz');
  assert.equal(dbCopyTime(dbCopyName(at))?.toISOString(), at.toISOString());
  assert.equal(dbCopyTime('database/notes.txt'), null);
});

test('the newest 24 are kept, then the newest of each day for 30 days, and nothing older', () => {
  const now = new Date('2026-07-31T12:00:00Z');
  const names: string[] = [];
  // Every 5 minutes over the last 4 hours (48 copies), and four a day for the 40 days before.
  for (let i = 0; i < 48; i++) names.push(dbCopyName(new Date(now.getTime() - i * 5 * 60_000)));
  for (let d = 1; d <= 40; d++) for (const h of [3, 9, 15, 21]) names.push(dbCopyName(new Date(Date.UTC(2026, 6, 31 - d, h))));
  const keep = copiesToKeep(names, now);
  const newest = [...names].sort().reverse();
  for (const n of newest.slice(0, 24)) assert.ok(keep.has(n), `${n}: among the newest 24`);
  const days = new Map<string, string>();
  for (const n of newest) {
    const t = dbCopyTime(n)!;
    if (now.getTime() - t.getTime() > 30 * 86_400_000) continue;
    const day = t.toISOString().slice(0, 10);
    if (!days.has(day)) days.set(day, n);
  }
  for (const n of days.values()) assert.ok(keep.has(n), `${n}: the newest of its day`);
  assert.equal(keep.size, 24 + days.size - 1, "nothing else (today's newest is among the 24)");
  assert.ok(!keep.has(dbCopyName(new Date(Date.UTC(2026, 5, 25, 21)))), 'a copy older than 30 days goes');
});

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Kysely } from 'kysely';
import type { Sqlite } from '../../server/db/open.js';
import type { DB } from '../../server/db/schema.js';
import { ProcessingRepo } from '../../server/processing/processing.repo.js';
import { JobQueue, type Job } from '../../server/processing/queue.js';
import { encodeArgs, encodeTimeLimitMs, playsAsIs, webFilters } from '../../server/processing/video.js';
import type { VideoFacts } from '../../server/processing/ffmpeg.js';
import { insertBarePhoto, migratedDb } from '../helpers/queue-db.js';

let sqlite: Sqlite;
let db: Kysely<DB>;
before(async () => ({ sqlite, db } = await migratedDb('wedding-lane-')));
after(() => db.destroy());

let n = 0;
const photo = (): string => insertBarePhoto(sqlite, `v${++n}`, 'x.mov', 'video/quicktime');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('re-encodes run one at a time in their own lane, and photos keep being processed meanwhile', async () => {
  const running = { transcode: 0, other: 0 };
  const peak = { transcode: 0 };
  const finished: string[] = [];
  const queue = new JobQueue(
    new ProcessingRepo(db),
    { concurrency: 1, coordinatorTypes: ['regenerate-all'], soloTypes: ['transcode'] },
    {
      async run(job: Job) {
        const kind = job.type === 'transcode' ? 'transcode' : 'other';
        running[kind]++;
        peak.transcode = Math.max(peak.transcode, running.transcode);
        await sleep(kind === 'transcode' ? 300 : 20);
        running[kind]--;
        finished.push(`${job.type}:${job.payload && 'photoId' in job.payload ? job.payload.photoId : ''}`);
      },
      async failed() {},
    },
  );
  const keep = setInterval(() => {}, 100);
  try {
    const videos = [photo(), photo(), photo()];
    for (const id of videos) await queue.enqueue('transcode', { photoId: id, version: 1 }, { key: `transcode:${id}:v1`, photoId: id });
    const photos = [photo(), photo(), photo(), photo()];
    for (const id of photos) await queue.enqueue('process-media', { photoId: id }, { key: `process-media:${id}`, photoId: id });
    await queue.start();
    await queue.idle();
    assert.equal(peak.transcode, 1, 'never two re-encodes at once');
    // With one worker slot, every photo finished before the second video's re-encode did.
    const secondVideo = finished.indexOf(`transcode:${videos[1]}`);
    for (const id of photos) assert.ok(finished.indexOf(`process-media:${id}`) < secondVideo, finished.join(' '));
  } finally {
    clearInterval(keep);
    await queue.stop();
  }
});

const facts = (p: Partial<VideoFacts>): VideoFacts => ({
  duration: 10, width: 1920, height: 1080, rotation: 0, creationTime: null, cameraMake: null, cameraModel: null,
  codec: 'h264', pixFmt: 'yuv420p', transfer: 'bt709', primaries: 'bt709', matrix: 'bt709', audioCodec: 'aac', ...p,
});

test('what is copied, what is re-encoded, and how', () => {
  assert.equal(playsAsIs(facts({})), true);
  assert.equal(playsAsIs(facts({ codec: 'hevc' })), false);
  assert.equal(playsAsIs(facts({ pixFmt: 'yuv420p10le' })), false);
  assert.equal(playsAsIs(facts({ transfer: 'arib-std-b67' })), false);
  assert.equal(playsAsIs(facts({ rotation: 90 })), false);
  assert.equal(playsAsIs(facts({ width: 3840, height: 2160 })), false);
  assert.equal(playsAsIs(facts({ audioCodec: 'opus' })), false);
  assert.equal(playsAsIs(facts({ audioCodec: null })), true);
  // A 4K HDR portrait clip: scaled to 1080x1920 first, then tone-mapped, then 8-bit 4:2:0.
  const vf = webFilters(facts({ width: 2160, height: 3840, transfer: 'smpte2084', primaries: 'bt2020', matrix: 'bt2020nc' }));
  assert.match(vf, /^scale=1080:1920,zscale=tin=smpte2084:pin=bt2020:min=bt2020nc:t=linear.*tonemap=tonemap=hable.*zscale=t=bt709:m=bt709:r=tv,format=yuv420p$/);
  const args = encodeArgs('in.mov', 'out.mp4', facts({ codec: 'hevc' }));
  for (const a of ['libx264', '+faststart', '-map_metadata']) assert.ok(args.includes(a), a);
  // The time limit grows with the clip.
  assert.ok(encodeTimeLimitMs(600) > encodeTimeLimitMs(60) && encodeTimeLimitMs(60) > encodeTimeLimitMs(1));
});

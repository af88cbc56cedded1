// The reception wall left running: many slides and many photo-visible / photo-hidden events,
// measuring the page's JS heap and DOM after forced GC at the start and at the end.
// Run: npx tsx scripts/bench/wall-memory.ts [seconds=180] [interval_ms=50] [layout=single|mosaic|magazine|cycle|all]
// (needs the built client: node scripts/build.mjs)
import { pathToFileURL } from 'node:url';
import { launchBrowser } from '../../test/helpers/browser.js';
import { sample } from '../../test/helpers/samples.js';
import { startTestServer, TestClient } from '../../test/helpers/server.js';
import { addPhoto, testVideo } from '../../test/server/photos-fixture.js';
import type { WallLayout } from '../../common/api-types.js';

export interface SoakResult {
  seconds: number;
  intervalMs: number;
  slides: number;
  /** Hours of a real wall at 8 s a photo that the slides shown stand for. */
  simulatedHours: number;
  events: number;
  heapStartMB: number;
  heapEndMB: number;
  domNodesStart: number;
  domNodesEnd: number;
  listenersStart: number;
  listenersEnd: number;
  elementsStart: number;
  elementsEnd: number;
  layout: WallLayout;
  /** The longest a photo's place (the slide, or one tile) stayed without a drawn picture, in ms and in slides. */
  longestBlankMs: number;
  longestBlankSlides: number;
  /** Video elements that appeared (a slide or a tile playing the clip), and the most in the page at once. */
  videosShown: number;
  mostVideosAtOnce: number;
}

const SAMPLES = ['Canon_40D.jpg', 'Nikon_D70.jpg', 'Pentax_K10D.jpg', 'Panasonic_DMC-FZ30.jpg', 'Fujifilm_FinePix_E500.jpg', 'orientation_landscape_6.jpg', 'orientation_portrait_6.jpg', 'xmp_no_exif.jpg'];

export async function runWallSoak(opts: { seconds: number; intervalMs?: number; photos?: number; layout?: WallLayout; log?: (m: string) => void }): Promise<SoakResult> {
  const layout = opts.layout ?? 'single';
  const intervalMs = opts.intervalMs ?? 50;
  const log = opts.log ?? (() => undefined);
  const s = await startTestServer();
  const browser = await launchBrowser();
  try {
    const ids: string[] = [];
    for (let i = 0; i < (opts.photos ?? 24); i++) ids.push(await addPhoto(s, { file: sample(SAMPLES[i % SAMPLES.length]), visible: true }));
    ids.push(await addPhoto(s, { file: testVideo(), visible: true, contentType: 'video/mp4' }));
    // Hidden ones to approve during the run.
    const hidden: string[] = [];
    for (let i = 0; i < 6; i++) hidden.push(await addPhoto(s, { file: sample(SAMPLES[i]), visible: false }));
    const admin = new TestClient(s.url);
    await admin.login();
    await admin.put('/admin/api/wall', { layout });

    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    // data-shown counts per layout (slides, or tile changes); the total carries over layout changes (cycle).
    const shown = async () => page.evaluate(() => (window as unknown as { __shown: () => number }).__shown());
    const measure = async (settledAt = -1) => {
      // Compare like with like: one photo on screen (no crossfade or video under way), or every tile drawn.
      await page.waitForFunction(() => {
        const slides = document.querySelectorAll('.wall-slide');
        if (slides.length === 1 && slides[0].querySelector('img') !== null) return true;
        const tiles = [...document.querySelectorAll<HTMLImageElement>('.wall-tile img')];
        return tiles.length > 0 && !document.querySelector('.wall-slide') && tiles.every((i) => i.complete && i.naturalWidth > 0);
      }, undefined, { timeout: 60_000, polling: 5 });
      // Nodes of slides just taken off (an image still decoding, a video element whose source was
      // just let go and whose "emptied" event is still queued) outlive a collection until that
      // work is done, later on a busy machine: collect in rounds 300 ms apart until the count
      // has held for three rounds (at most 20), and keep the lowest. A leak stays in every round.
      // With `settledAt` (the end's measure: the start's count and a little), a count held above it
      // is not taken as settled: the rounds go on (a loaded machine finishes that work seconds late).
      let least = { heapMB: Infinity, nodes: Infinity, listeners: Infinity };
      const counts: number[] = [];
      for (let round = 0; round < 20; round++) {
        if (round) await new Promise((r) => setTimeout(r, 300));
        for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
        const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
        const dom = (await cdp.send('Memory.getDOMCounters')) as { nodes: number; jsEventListeners: number };
        least = { heapMB: Math.min(least.heapMB, heap.usedSize / 1048576), nodes: Math.min(least.nodes, dom.nodes), listeners: Math.min(least.listeners, dom.jsEventListeners) };
        counts.push(dom.nodes);
        if (counts.length >= 3 && counts.slice(-3).every((n) => n === counts.at(-1)) && (settledAt < 0 || dom.nodes <= settledAt)) break;
      }
      const elements = await page.evaluate(() => document.getElementsByTagName('*').length);
      return { ...least, elements };
    };

    // The cycle goes through its three layouts every few seconds here, so one run sees them all several times.
    await page.addInitScript((interval: number) => {
      let total = 0;
      let last = 0;
      let layoutNow = '';
      let longestBlank = 0;
      const blankSince = new Map<number, number>();
      const videos = { seen: new WeakSet<Element>(), shown: 0, most: 0 };
      const w = window as unknown as { __shown: () => number; __longestBlank: () => number; __videos: () => { shown: number; most: number } };
      w.__shown = () => {
        const main = document.querySelector('main.wall');
        const n = Number(main?.getAttribute('data-shown') ?? 0);
        const l = main?.getAttribute('data-layout') ?? '';
        if (l !== layoutNow) {
          layoutNow = l;
          last = 0;
        }
        total += Math.max(0, n - last);
        last = n;
        return total;
      };
      w.__longestBlank = () => longestBlank;
      w.__videos = () => ({ shown: videos.shown, most: videos.most });
      // Every photo's place: the slide (single) or each tile; blank while it has no drawn picture.
      setInterval(() => {
        w.__shown();
        const playing = document.querySelectorAll('video');
        videos.most = Math.max(videos.most, playing.length);
        for (const v of playing) if (!videos.seen.has(v)) videos.seen.add(v), videos.shown++;
        const main = document.querySelector('main.wall');
        if (!main || main.getAttribute('data-paused') !== 'false') return blankSince.clear();
        const places = main.querySelector('.wall-grid')
          ? [...main.querySelectorAll('.wall-tile[data-photo-id]')].map((t) => t.querySelector('img'))
          : [main.querySelector('.wall-slide:not(.leaving) img, .wall-slide:not(.leaving) video, .wall-slide:not(.leaving) blockquote, .wall-slide.leaving img')];
        const now = performance.now();
        places.forEach((el, i) => {
          const drawn = !!el && (el.tagName !== 'IMG' || ((el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0));
          if (drawn) blankSince.delete(i);
          else if (!blankSince.has(i)) blankSince.set(i, now);
          else longestBlank = Math.max(longestBlank, now - blankSince.get(i)!);
        });
      }, Math.max(5, Math.min(50, interval / 4)));
    }, intervalMs);
    await page.goto(`${s.url}/wall?interval=${intervalMs}&cycle=${Math.max(2000, intervalMs * 40)}`);
    await page.waitForFunction(() => !!document.querySelector('main.wall[data-layout]'), undefined, { timeout: 60_000 });
    // Warm up: code loaded, a full round of the rotation seen, caches filled.
    await page.waitForFunction((n) => (window as unknown as { __shown: () => number }).__shown() >= n, ids.length + 5, { timeout: 120_000 });
    const start = await measure();
    const slidesAtStart = await shown();
    const videosAtStart = await page.evaluate(() => (window as unknown as { __videos: () => { shown: number } }).__videos().shown);
    log(`start: heap ${start.heapMB.toFixed(2)} MB, ${start.nodes} DOM nodes, ${start.elements} elements`);

    const t0 = Date.now();
    let events = 0;
    let next = 0;
    while (Date.now() - t0 < opts.seconds * 1000) {
      // Hide one that shows and approve one that is hidden: two live events, the rotation keeps its size.
      const hide = ids[next % ids.length];
      const show = hidden.shift()!;
      await admin.post(`/admin/api/photos/${hide}/hide`);
      await admin.post(`/admin/api/photos/${show}/approve`);
      ids[next % ids.length] = show;
      hidden.push(hide);
      events += 2;
      next++;
      await new Promise((r) => setTimeout(r, 250));
      if (next % 80 === 0) {
        const m = await measure();
        log(`${Math.round((Date.now() - t0) / 1000)} s: ${await shown()} slides, ${events} events, heap ${m.heapMB.toFixed(2)} MB, ${m.nodes} nodes, ${m.listeners} listeners`);
      }
    }
    const slides = (await shown()) - slidesAtStart;
    const end = await measure(start.nodes + 10);
    const longestBlankMs = await page.evaluate(() => (window as unknown as { __longestBlank: () => number }).__longestBlank());
    const videos = await page.evaluate(() => (window as unknown as { __videos: () => { shown: number; most: number } }).__videos());
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    await context.close();
    return {
      seconds: Math.round((Date.now() - t0) / 1000),
      intervalMs,
      slides,
      simulatedHours: +((slides * 8) / 3600).toFixed(2),
      events,
      heapStartMB: +start.heapMB.toFixed(2),
      heapEndMB: +end.heapMB.toFixed(2),
      domNodesStart: start.nodes,
      domNodesEnd: end.nodes,
      listenersStart: start.listeners,
      listenersEnd: end.listeners,
      elementsStart: start.elements,
      elementsEnd: end.elements,
      layout,
      longestBlankMs: Math.round(longestBlankMs),
      longestBlankSlides: +(longestBlankMs / intervalMs).toFixed(2),
      videosShown: videos.shown - videosAtStart,
      mostVideosAtOnce: videos.most,
    };
  } finally {
    await browser.close();
    await s.close(1000);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const seconds = Number(process.argv[2] ?? 180);
  const intervalMs = Number(process.argv[3] ?? 50);
  const asked = process.argv[4] ?? 'single';
  const layouts: WallLayout[] = asked === 'all' ? ['single', 'mosaic', 'magazine', 'cycle'] : [asked as WallLayout];
  for (const layout of layouts) {
    const r = await runWallSoak({ seconds, intervalMs, layout, log: (m) => console.log(`[${layout}] ${m}`) });
    console.log(JSON.stringify(r, null, 2));
    console.log(
      `\nwall-memory ${layout}: ${r.slides} slides or tile changes (${r.simulatedHours} h at 8 s each), ${r.events} live events in ${r.seconds} s\n` +
        `  JS heap after GC: start ${r.heapStartMB} MB (baseline), end ${r.heapEndMB} MB, ratio ${(r.heapEndMB / r.heapStartMB).toFixed(3)}\n` +
        `  DOM nodes: start ${r.domNodesStart}, end ${r.domNodesEnd}, ratio ${(r.domNodesEnd / r.domNodesStart).toFixed(3)}; ` +
        `elements ${r.elementsStart} -> ${r.elementsEnd}; event listeners ${r.listenersStart} -> ${r.listenersEnd}\n` +
        `  longest without a drawn picture in one place: ${r.longestBlankMs} ms (${r.longestBlankSlides} slides of ${intervalMs} ms)\n` +
        `  the video played ${r.videosShown} times (a slide or a tile), at most ${r.mostVideosAtOnce} video element(s) in the page at once\n`,
    );
  }
  process.exit(0);
}

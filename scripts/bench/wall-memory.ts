// The reception wall left running: many slides and many photo-visible / photo-hidden events,
// measuring the page's JS heap and DOM after forced GC at the start and at the end.
// Run: npx tsx scripts/bench/wall-memory.ts [seconds=180] [interval_ms=50]
// (needs the built client: node scripts/build.mjs)
import { pathToFileURL } from 'node:url';
import { launchBrowser } from '../../test/helpers/browser.js';
import { sample } from '../../test/helpers/samples.js';
import { startTestServer, TestClient } from '../../test/helpers/server.js';
import { addPhoto, testVideo } from '../../test/server/photos-fixture.js';

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
}

const SAMPLES = ['Canon_40D.jpg', 'Nikon_D70.jpg', 'Pentax_K10D.jpg', 'Panasonic_DMC-FZ30.jpg', 'Fujifilm_FinePix_E500.jpg', 'orientation_landscape_6.jpg', 'orientation_portrait_6.jpg', 'xmp_no_exif.jpg'];

export async function runWallSoak(opts: { seconds: number; intervalMs?: number; photos?: number; log?: (m: string) => void }): Promise<SoakResult> {
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

    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const shown = async () => Number(await page.locator('main.wall').getAttribute('data-shown'));
    const measure = async () => {
      // Compare like with like: one photo on screen, no crossfade or video under way.
      await page.waitForFunction(() => {
        const slides = document.querySelectorAll('.wall-slide');
        return slides.length === 1 && slides[0].querySelector('img') !== null;
      }, undefined, { timeout: 60_000, polling: 5 });
      // Nodes of slides just taken off (an image still decoding) can outlive one collection on a
      // busy machine: the lowest of three rounds, 300 ms apart, is what the page really keeps.
      // A leak stays in every round.
      let least = { heapMB: Infinity, nodes: Infinity, listeners: Infinity };
      for (let round = 0; round < 3; round++) {
        if (round) await new Promise((r) => setTimeout(r, 300));
        for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
        const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
        const dom = (await cdp.send('Memory.getDOMCounters')) as { nodes: number; jsEventListeners: number };
        least = { heapMB: Math.min(least.heapMB, heap.usedSize / 1048576), nodes: Math.min(least.nodes, dom.nodes), listeners: Math.min(least.listeners, dom.jsEventListeners) };
      }
      const elements = await page.evaluate(() => document.getElementsByTagName('*').length);
      return { ...least, elements };
    };

    await page.goto(`${s.url}/wall?interval=${intervalMs}`);
    // Warm up: code loaded, a full round of the rotation seen, caches filled.
    await page.waitForFunction((n) => Number(document.querySelector('main.wall')?.getAttribute('data-shown')) >= n, ids.length + 5, { timeout: 120_000 });
    const start = await measure();
    const slidesAtStart = await shown();
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
    const end = await measure();
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
    };
  } finally {
    await browser.close();
    await s.close(1000);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const seconds = Number(process.argv[2] ?? 180);
  const intervalMs = Number(process.argv[3] ?? 50);
  const r = await runWallSoak({ seconds, intervalMs, log: (m) => console.log(m) });
  console.log(JSON.stringify(r, null, 2));
  console.log(
    `\nwall-memory: ${r.slides} slides (${r.simulatedHours} h at 8 s a photo), ${r.events} live events in ${r.seconds} s\n` +
      `  JS heap after GC: start ${r.heapStartMB} MB (baseline), end ${r.heapEndMB} MB, ratio ${(r.heapEndMB / r.heapStartMB).toFixed(3)}\n` +
      `  DOM nodes: start ${r.domNodesStart}, end ${r.domNodesEnd}, ratio ${(r.domNodesEnd / r.domNodesStart).toFixed(3)}; ` +
      `elements ${r.elementsStart} -> ${r.elementsEnd}; event listeners ${r.listenersStart} -> ${r.listenersEnd}`,
  );
  process.exit(0);
}

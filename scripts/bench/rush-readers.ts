// The rush benchmark's readers, in their own process: the gallery browsers, the admin and the
// idle-phase status pollers. On a wedding day they are other phones and a laptop; here they get
// their own event loop so that the sending of 300 uploads in the main process does not delay
// their timers or their reading of answers, and so adds nothing to the times they record.
// rush.ts forks this file and talks to it over IPC:
//   -> { type: 'start', base, password, browsers, seeded, warmUpMs, harsh, oneAddress }   <- { type: 'started' }
//      (the first warmUpMs are recorded as 'warm-up', then the idle baseline)
//   -> { type: 'rush' }   (the idle baseline ends)
//   -> { type: 'visit', id, address }   <- { type: 'visited', id }   (a guest's first request, --harsh)
//   -> { type: 'stop' }   <- { type: 'done', entries, waits, lag: { idle, rush } }
import { admin, firstVisit, galleryBrowser, pollStatus, type Outcome, type Run } from './rush-clients.js';
import { Browser, connectionWaits, lagMonitor, phoneAddress, Recorder, shareOneAddress } from './rush-http.js';

export interface StartMessage {
  type: 'start';
  base: string;
  password: string;
  browsers: number;
  seeded: Outcome[];
  warmUpMs: number;
  harsh: boolean;
  /** --one-address: every phone from 127.0.0.1 (rush-http.ts phoneAddress). */
  oneAddress?: boolean;
}

/** The readers' figures, their last message. */
export interface DoneMessage {
  type: 'done';
  entries: ReturnType<Recorder['entries']>;
  waits: number[];
  lag: { idle: string; rush: string };
}

/** The idle phase's status reads: the seed photos polled at the guest page's pace by 20 pollers. */
async function idlePolling(run: Run, base: string, seeded: Outcome[]): Promise<void> {
  const one = async (o: Outcome, n: number) => {
    const b = new Browser(base, phoneAddress('poller', n));
    for (let i = 0; i < 100_000 && !run.stopped(); i++) {
      await pollStatus(run, b, { ...o }, 1, 1500);
    }
    b.close();
  };
  await Promise.all(seeded.slice(0, 20).map(one));
}

/**
 * Phones arriving (--harsh): every 500 ms one opens the page on a new connection. In the idle phase
 * they are the baseline of a guest's first request; under the rush they add to the guests' own.
 */
async function arrivals(run: Run, base: string): Promise<void> {
  for (let i = 0; i < 100_000 && !run.stopped(); i++) {
    const b = new Browser(base, phoneAddress('arrival', i));
    await firstVisit(run, b);
    b.close();
    await new Promise((r) => setTimeout(r, 500));
  }
}

if (process.send) {
  const send = (m: object, then?: () => void) => process.send!(m, undefined, {}, () => then?.());
  const rec = new Recorder();
  let stop = false;
  let readers: Promise<unknown> | undefined;
  let lag = lagMonitor();
  let idleLag = '';
  let visitor: ((id: number, address: string | undefined) => void) | undefined;
  process.on('message', async (m: StartMessage | { type: 'rush' | 'stop' } | { type: 'visit'; id: number; address?: string }) => {
    if (m.type === 'visit') {
      visitor?.(m.id, m.address);
    } else if (m.type === 'start') {
      shareOneAddress(!!m.oneAddress);
      const run: Run = { rec, stopped: () => stop, harsh: m.harsh };
      // A guest opening the page (--harsh): timed here, on a phone of its own, not in the
      // uploaders' process, whose event loop sending 300 uploads would be part of the time.
      visitor = (id, address) => {
        const b = new Browser(m.base, address);
        void firstVisit(run, b).finally(() => {
          b.close();
          send({ type: 'visited', id });
        });
      };
      rec.phase = 'warm-up';
      setTimeout(() => {
        if (rec.phase !== 'warm-up') return;
        rec.phase = 'idle';
        lag.stop();
        lag = lagMonitor();
      }, m.warmUpMs);
      readers = Promise.all([
        ...Array.from({ length: m.browsers }, (_, i) => galleryBrowser(run, m.base, i)),
        admin(run, m.base, m.password),
        idlePolling(run, m.base, m.seeded),
        m.harsh ? arrivals(run, m.base) : undefined,
      ]);
      send({ type: 'started' });
    } else if (m.type === 'rush') {
      idleLag = lag.stop();
      lag = lagMonitor();
      rec.phase = 'rush';
    } else if (m.type === 'stop') {
      stop = true;
      await readers;
      // A large message: leave only once it is written.
      const done: DoneMessage = { type: 'done', entries: rec.entries(), waits: connectionWaits, lag: { idle: idleLag, rush: lag.stop() } };
      send(done, () => process.disconnect());
    }
  });
}

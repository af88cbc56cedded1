// The rush benchmark's readers as the benchmark drives them, and the table of their figures:
// shared by bench:rush and bench:faces (guests' reads while the face search scans).
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIRST_REQUEST } from './rush-clients.js';
import { percentile, type Phase, type Recorder } from './rush-http.js';
import type { DoneMessage, StartMessage } from './rush-readers.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The readers' process (rush-readers.ts): started with the seed photos, told when the rush starts and when to stop. */
export class Readers {
  private readonly visits = new Map<number, () => void>();
  private visitCount = 0;

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (m: { type: string; id?: number }) => {
      if (m.type !== 'visited') return;
      this.visits.get(m.id!)?.();
      this.visits.delete(m.id!);
    });
  }

  static async start(start: StartMessage): Promise<Readers> {
    const child = fork(path.join(ROOT, 'scripts/bench/rush-readers.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    const started = new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`the readers' process ended (${code})`)));
    });
    child.send(start);
    await started;
    return new Readers(child);
  }

  rush(): void {
    this.child.send({ type: 'rush' });
  }

  /** A guest's first request (--harsh), made and recorded by the readers' process; resolves once answered. */
  visit(address: string | undefined): Promise<void> {
    const id = this.visitCount++;
    return new Promise((resolve) => {
      this.visits.set(id, resolve);
      this.child.send({ type: 'visit', id, address });
    });
  }

  stop(): Promise<DoneMessage> {
    return new Promise((resolve, reject) => {
      this.child.on('message', (m: DoneMessage) => m.type === 'done' && resolve(m));
      // 'close', not 'exit': a large last message may still be on its way when the process exits.
      this.child.once('close', (code) => reject(new Error(`the readers' process ended (${code}) without its figures`)));
      this.child.send({ type: 'stop' });
    });
  }
}

const GOALS: Record<string, number> = {
  'GET /api/photos (gallery page)': 250,
  'GET thumbnail': 250,
  'GET display image': 250,
  'GET /api/stats': 250,
  'GET /api/photos/{id}/status': 250,
  'GET /admin/api/dashboard': 1000,
  'GET /admin/api/photos (queue)': 1000,
  'POST /api/upload-chunk (server, after the body)': 1000,
  "POST /api/upload-chunk (client's last byte to answer)": 1000,
  [FIRST_REQUEST]: 250,
};

/** Prints each route's idle and loaded (`rush` phase) latencies against its goal. */
export function report(rec: Recorder, loaded = 'under the rush'): void {
  const f = (x: number) => (Number.isNaN(x) ? '-' : x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(1)} ms`);
  const cell = (phase: Phase, route: string) => {
    const s = rec.get(phase, route);
    if (!s) return { text: '-', p99: NaN, s };
    const sorted = [...s.ms].sort((a, b) => a - b);
    const p99 = percentile(sorted, 99);
    return { text: `n ${sorted.length}, p50 ${f(percentile(sorted, 50))}, p95 ${f(percentile(sorted, 95))}, p99 ${f(p99)}`, p99, s };
  };
  console.log(`\nroute | idle (baseline) | ${loaded} | errors (5xx) | p99 ratio | goal p99`);
  console.log('---|---|---|---|---|---');
  for (const route of rec.routes()) {
    const idle = cell('idle', route);
    const rush = cell('rush', route);
    const errors = `${(rush.s?.errors ?? 0) + (idle.s?.errors ?? 0)} (${(rush.s?.fiveXX ?? 0) + (idle.s?.fiveXX ?? 0)})`;
    const ratio = idle.p99 > 0 && rush.p99 > 0 ? `x${(rush.p99 / idle.p99).toFixed(1)}` : '-';
    const goal = GOALS[route] ? `< ${f(GOALS[route])}: ${rush.p99 < GOALS[route] ? 'met' : 'MISSED'}` : '';
    console.log(`${route} | ${idle.text} | ${rush.text} | ${errors} | ${ratio} | ${goal}`);
  }
}


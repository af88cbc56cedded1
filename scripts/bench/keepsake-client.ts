// What bench:keepsakes and bench:rush --film share: a keepsake asked for as the admin page asks
// for it (signed in as the admin) and followed until it is made.
import fs from 'node:fs';
import type { KeepsakeView } from '../../common/keepsake-types.js';
import { TestClient } from '../../test/helpers/server.js';
import { children } from './bench-server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const read = (file: string) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return ''; // the process ended
  }
};

/** The admin, signed in. */
export async function signedInAdmin(base: string, password: string): Promise<TestClient> {
  const admin = new TestClient(base);
  await admin.login('admin', password);
  return admin;
}

/** A film or book asked for (POST /admin/api/keepsakes) and followed (GET /admin/api/keepsakes/:id). */
export class KeepsakeRun {
  private constructor(
    private readonly admin: TestClient,
    readonly id: string,
    /** performance.now() when it was asked for. */
    readonly askedAt: number,
  ) {}

  static async start(admin: TestClient, body: Record<string, unknown>): Promise<KeepsakeRun> {
    const askedAt = performance.now();
    const r = await admin.post('/admin/api/keepsakes', body);
    if (r.status !== 202) throw new Error(`POST /admin/api/keepsakes: ${r.status} ${JSON.stringify(r.body)}`);
    return new KeepsakeRun(admin, r.body.keepsake.id as string, askedAt);
  }

  async now(): Promise<KeepsakeView> {
    const r = await this.admin.get(`/admin/api/keepsakes/${this.id}`);
    if (r.status !== 200) throw new Error(`GET /admin/api/keepsakes/${this.id}: ${r.status}`);
    return r.body.keepsake as KeepsakeView;
  }

  /** Polls every `everyMs` until it is ready (throws when it failed or takes over `minutes`); its view and the seconds since it was asked for. */
  async done(minutes: number, everyMs = 250): Promise<{ view: KeepsakeView; seconds: number }> {
    const deadline = this.askedAt + minutes * 60_000;
    for (;;) {
      const view = await this.now();
      if (view.status === 'ready') return { view, seconds: (performance.now() - this.askedAt) / 1000 };
      if (view.status === 'error') throw new Error(`the ${view.kind} failed: ${view.error}`);
      if (performance.now() > deadline) throw new Error(`the ${view.kind} was not made within ${minutes} min (${view.status}, ${view.progress}%)`);
      await sleep(everyMs);
    }
  }

  /**
   * For bench:rush --film: samples every 200 ms the tools the media worker runs for it (their
   * command lines name it) under the server's process `serverPid`. Once the rush's uploads are
   * processed (performance.now() times): how long its ffmpeg ran and was paused, the CPU it used,
   * how far the film had come; then waits for it and says when it was ready.
   */
  watch(serverPid: number): { afterRush(rushStart: number, lastSettled: number): Promise<string> } {
    const cpu = new Map<number, number>();
    let running = 0;
    let paused = 0;
    const timer = setInterval(() => {
      for (const pid of children(serverPid).flatMap(children)) {
        const stat = read(`/proc/${pid}/stat`);
        if (!stat || !read(`/proc/${pid}/cmdline`).includes(this.id)) continue;
        const f = stat.split(') ')[1].split(' ');
        if (f[0] === 'T') paused++;
        else running++;
        cpu.set(pid, (Number(f[11]) + Number(f[12])) / 100);
      }
    }, 200);
    return {
      afterRush: async (rushStart, lastSettled) => {
        clearInterval(timer);
        const then = await this.now();
        const used = [...cpu.values()].reduce((a, b) => a + b, 0);
        const { seconds } = await this.done(60);
        const s = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
        return (
          `film (asked for ${s(this.askedAt - rushStart)} into the rush): until its uploads were processed (${s(lastSettled - rushStart)}) its ffmpeg ran ${(running / 5).toFixed(0)} s ` +
          `and was paused ${(paused / 5).toFixed(0)} s (the uploads' processing goes first), using ${used.toFixed(0)} s of CPU; ${then.progress}% made by then; ready ${seconds.toFixed(0)} s after it was asked for`
        );
      },
    };
  }
}

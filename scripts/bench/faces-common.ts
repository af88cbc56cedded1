// What bench:faces and bench:faces-guests share: the face workers' memory and CPU from /proc,
// and a guest's selfie search from the selfie to a condition on its answer.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type { TestClient } from '../../test/helpers/server.js';

export const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
export const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function rssOf(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
  } catch {
    return 0;
  }
}

/** CPU seconds (user + system) a process has used so far (Linux /proc, 100 ticks a second). */
export function cpuOf(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}
export const cpuOfAll = (pids: number[]) => pids.reduce((sum, pid) => sum + cpuOf(pid), 0);

/** The face workers under a process: its children whose command line names face-worker. */
export function faceWorkers(parent: number): number[] {
  // ps exits 1 when the process has no children.
  const out = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(parent)], { encoding: 'utf8' }).stdout;
  return out.split('\n').filter((l) => l.includes('face-worker')).map((l) => Number(l.trim().split(/\s+/)[0]));
}

/** Peak RSS of each face worker and of all of them together while `fn` runs. */
export async function sampled<T>(pids: () => number[], fn: () => Promise<T>): Promise<{ value: T; peakEach: number; peakSum: number }> {
  let peakEach = 0;
  let peakSum = 0;
  const timer = setInterval(() => {
    const each = pids().map(rssOf);
    peakEach = Math.max(peakEach, ...each);
    peakSum = Math.max(peakSum, each.reduce((a, b) => a + b, 0));
  }, 250);
  try {
    return { value: await fn(), peakEach, peakSum };
  } finally {
    clearInterval(timer);
  }
}

export async function selfieSearch(guest: TestClient, selfie: Buffer, until: (b: any) => boolean): Promise<{ first: number; done: number; body: any }> {
  const form = new FormData();
  form.append('consent', 'true');
  form.append('selfie', new Blob([new Uint8Array(selfie)], { type: 'image/jpeg' }), 'selfie.jpg');
  const t0 = performance.now();
  const res = await guest.fetch('/api/faces/me', { method: 'POST', body: form });
  if (res.status !== 200) throw new Error(`selfie: ${res.status} ${await res.text()}`);
  let first = Infinity;
  for (;;) {
    const r = await guest.get('/api/faces/me');
    if (r.body.matches?.length && first === Infinity) first = performance.now() - t0;
    if (until(r.body)) return { first, done: performance.now() - t0, body: r.body };
    await new Promise((r) => setTimeout(r, 250));
  }
}


import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from './temp.js';

/** One system call as strace saw it: where in the trace it began and where it returned. */
export interface Syscall {
  name: string;
  /** Its arguments as strace printed them (paths of descriptors included, -yy). */
  args: string;
  started: number;
  ended: number;
}

export const straceMissing = spawnSync('strace', ['-V']).status !== 0;
if (straceMissing) process.stderr.write('\n!!! strace is not installed (Debian: apt-get install strace): the tests that trace system calls are SKIPPED\n\n');

/**
 * strace attached to a running process and all its threads, recording `calls` until stop().
 * The order of the trace is the order in which the kernel ran them.
 */
export async function traceSyscalls(pid: number, calls: string[]): Promise<{ stop(): Promise<Syscall[]> }> {
  const out = path.join(tempDir('wedding-strace-'), 'trace');
  const child: ChildProcess = spawn('strace', ['-f', '-yy', '-s', '48', '-e', `trace=${calls.join(',')}`, '-o', out, '-p', String(pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const deadline = Date.now() + 10_000;
  while (!/attached/.test(err)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`strace did not attach: ${err}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  await new Promise((r) => setTimeout(r, 200)); // every thread attached
  return {
    async stop() {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGINT');
      });
      return parseTrace(fs.readFileSync(out, 'utf8'));
    },
  };
}

/** strace -f output: `PID name(args) = ret`, or a call split into `<unfinished ...>` and `<... name resumed>`. */
export function parseTrace(text: string): Syscall[] {
  const calls: Syscall[] = [];
  const open = new Map<string, Syscall>();
  text.split('\n').forEach((line, i) => {
    const resumed = /^(\d+)\s+<\.\.\. (\w+) resumed>/.exec(line);
    if (resumed) {
      const call = open.get(resumed[1]);
      if (call) call.ended = i;
      open.delete(resumed[1]);
      return;
    }
    const m = /^(\d+)\s+(\w+)\((.*)$/.exec(line);
    if (!m) return;
    const call: Syscall = { name: m[2], args: m[3], started: i, ended: i };
    calls.push(call);
    if (line.endsWith('<unfinished ...>')) open.set(m[1], call);
  });
  return calls;
}

// The processes a test's server started for something, found by what their command lines name.
import fs from 'node:fs';

/** The processes whose command line names `text` (a keepsake's ffmpeg reads and writes `<id>.work/`). */
export function toolsOf(text: string): { pid: number; args: string }[] {
  const out: { pid: number; args: string }[] = [];
  for (const pid of fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      if (args.includes(text)) out.push({ pid: Number(pid), args });
    } catch {
      /* ended meanwhile */
    }
  }
  return out;
}

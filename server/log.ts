/** A small leveled logger writing one line per event to stdout/stderr. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };
let threshold = ORDER[(process.env.LOG_LEVEL as LogLevel) ?? 'info'] ?? ORDER.info;

export function setLogLevel(level: LogLevel): void {
  threshold = ORDER[level];
}

function write(level: Exclude<LogLevel, 'silent'>, msg: string, extra?: unknown): void {
  if (ORDER[level] < threshold) return;
  const line = `${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} ${msg}`;
  const tail =
    extra === undefined ? '' : extra instanceof Error ? `\n${extra.stack ?? extra.message}` : ` ${JSON.stringify(extra)}`;
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(line + tail + '\n');
}

export const log = {
  debug: (msg: string, extra?: unknown) => write('debug', msg, extra),
  info: (msg: string, extra?: unknown) => write('info', msg, extra),
  warn: (msg: string, extra?: unknown) => write('warn', msg, extra),
  error: (msg: string, extra?: unknown) => write('error', msg, extra),
};

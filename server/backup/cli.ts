import { ConfigError, loadConfig } from '../config.js';

/** `--data-dir DIR` if given, else DATA_DIR as the server reads it. */
export function resolveDataDir(args: string[]): string {
  const i = args.indexOf('--data-dir');
  if (i !== -1) {
    const dir = args[i + 1];
    if (!dir || dir.startsWith('--')) fail('--data-dir needs a folder');
    args.splice(i, 2);
    return dir;
  }
  try {
    return loadConfig(process.env).dataDir;
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
}

export function fail(message: string, code = 2): never {
  process.stderr.write(message.endsWith('\n') ? message : message + '\n');
  process.exit(code);
}

export function megabytes(bytes: number): string {
  return `${(bytes / 1048576).toFixed(1)} MB`;
}

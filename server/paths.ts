import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root: the nearest folder above this file that holds package.json (works bundled or from source). */
export function appRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
}

/** The built client (index.html and assets/). */
export function clientDir(): string {
  return process.env.CLIENT_DIR ? path.resolve(process.env.CLIENT_DIR) : path.join(appRoot(), 'dist', 'client');
}

// The source a compiled test file (scripts/test-build.mjs: WEDDING_TEST_OUT/…/x.test.js) was made
// from, as a path inside the project; other paths are returned relative to the project.
import fs from 'node:fs';
import path from 'node:path';

export function sourceOf(file, compiledDir = process.env.WEDDING_TEST_OUT) {
  if (compiledDir && file.startsWith(compiledDir + path.sep)) {
    const stem = path.join('test', path.relative(compiledDir, file)).replace(/\.js$/, '');
    return fs.existsSync(stem + '.tsx') ? stem + '.tsx' : stem + '.ts';
  }
  return path.relative(process.cwd(), file);
}

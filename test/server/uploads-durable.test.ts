// A 201 is sent only once the upload survives a power cut: the original's bytes are synced before
// its rename into media/originals, the folder is synced after it, and the commit that owns it is
// synced before the answer. Checked on the real server's system calls, traced by strace.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { ServerProcess } from '../helpers/browser.js';
import { chunkedUpload, tinyImage, uploadFile } from '../helpers/uploads.js';
import { straceMissing, traceSyscalls, type Syscall } from '../helpers/syscalls.js';

const CALLS = ['fsync', 'fdatasync', 'rename', 'renameat', 'renameat2', 'pwrite64', 'pwritev', 'write', 'writev'];
const isSync = (c: Syscall) => c.name === 'fsync' || c.name === 'fdatasync';
/** The path of a call's first argument, a descriptor strace decoded (`17</data/wedding.db-wal>`). */
const fdPath = (c: Syscall) => /^\d+<([^>]*)>/.exec(c.args)?.[1] ?? '';

/** What the trace shows for the upload answered by the `nth` 201 (1-based): each step, in order, or the step missing. */
function durableBefore201(calls: Syscall[], nth: number): string[] {
  const answers = calls.filter((c) => /^(write|writev)$/.test(c.name) && /TCP/.test(c.args) && c.args.includes('HTTP/1.1 201'));
  const answer = answers[nth - 1];
  if (!answer) return ['no 201 answer in the trace'];
  const before = (c: Syscall) => c.ended < answer.started;
  const rename = calls.filter((c) => c.name.startsWith('rename') && c.args.includes('/media/originals/') && before(c)).pop();
  if (!rename) return ['no rename into media/originals before the answer'];
  const source = /"([^"]+)"/.exec(rename.args)?.[1] ?? '';
  const problems: string[] = [];
  if (!calls.some((c) => isSync(c) && fdPath(c) === source && c.ended < rename.started)) problems.push(`the bytes of ${source} were not synced before the rename`);
  const folderSync = calls.find((c) => isSync(c) && fdPath(c).endsWith('/media/originals') && c.started > rename.ended && before(c));
  if (!folderSync) return [...problems, 'media/originals was not synced between the rename and the answer'];
  const commit = calls.find((c) => c.name.startsWith('pwrite') && fdPath(c).endsWith('wedding.db-wal') && c.started > folderSync.ended);
  if (!commit || !before(commit)) return [...problems, 'no commit to the database between the folder sync and the answer'];
  if (!calls.some((c) => isSync(c) && fdPath(c).endsWith('wedding.db-wal') && c.started > commit.ended && before(c))) {
    problems.push('the commit (the WAL) was not synced before the answer');
  }
  return problems;
}

test('a 201 goes out only after the original, its name in media/originals and its commit are on the disk', { skip: straceMissing && 'strace is not installed' }, async () => {
  assert.ok(fs.existsSync('dist/server/main.js'), 'build first: node scripts/build.mjs');
  const server = await new ServerProcess().start();
  try {
    const trace = await traceSyscalls(server.child!.pid!, CALLS);
    const single = await uploadFile(server.url, await tinyImage('jpeg', 1, 640, 480), 'single.jpg');
    const big = await tinyImage('png', 2, 900, 700);
    const chunked = await chunkedUpload(server.url, big, { chunkSize: Math.ceil(big.length / 3), filename: 'chunked.png', uploadId: 'durable-chunked' });
    const calls = await trace.stop();
    assert.equal(single.status, 201, JSON.stringify(single.body));
    assert.equal(chunked.status, 201, JSON.stringify(chunked.body));
    assert.deepEqual(durableBefore201(calls, 1), [], 'single upload');
    assert.deepEqual(durableBefore201(calls, 2), [], 'last chunk');
  } finally {
    await server.stop();
  }
});

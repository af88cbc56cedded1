import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { FileSink } from '../../server/uploads/file-sink.js';
import { tempDir } from '../helpers/temp.js';

const KiB = 1024;
const piece = (i: number) => Buffer.alloc(64 * KiB, i % 251);
/** A request whose bytes have all come in: its pieces skip the pacer. */
const arrived = { arrived: () => true, remaining: () => 0, since: 0 };

/** The real file, its vectored writes held until `release` (or failed with `fail`). */
async function heldFile(file: string) {
  const real = await fs.promises.open(file, 'w');
  let open!: () => void;
  let shut!: (e: Error) => void;
  const gate = new Promise<void>((resolve, reject) => ((open = resolve), (shut = reject)));
  gate.catch(() => undefined);
  let writes = 0;
  const handle = {
    fd: real.fd,
    writev: async (bufs: Buffer[], at: number) => {
      writes++;
      await gate;
      return real.writev(bufs, at);
    },
    write: (...a: Parameters<FileHandle['write']>) => real.write(...a),
  } as unknown as FileHandle;
  return { handle, real, release: open, fail: shut, writes: () => writes };
}

/** Writes pieces one after another; resolves with how many were taken before one waits 200 ms. */
async function feed(sink: FileSink, count: number): Promise<number> {
  for (let i = 0; i < count; i++) {
    const taken = await Promise.race([new Promise<boolean>((r) => sink.write(piece(i), () => r(true))), new Promise<boolean>((r) => setTimeout(() => r(false), 200))]);
    if (!taken) return i;
  }
  return count;
}

test('an upload keeps taking in bytes while its previous batch is being written, up to 512 KiB gathered, and the file ends byte for byte as sent', async () => {
  const file = path.join(tempDir('wedding-sink-'), 'upload');
  const held = await heldFile(file);
  const hash = crypto.createHash('sha256');
  const sink = new FileSink({ file: held.handle, position: 0, hash, limit: 16 << 20, tooLarge: () => new Error('too large') as never, body: arrived });
  try {
    // The first 256 KiB batch is written (and held); the upload goes on gathering meanwhile.
    const taken = await feed(sink, 16);
    assert.equal(held.writes(), 1, 'one write under way');
    assert.ok(taken >= 8, `went on taking bytes while its first write was under way (${taken} pieces of 64 KiB)`);
    assert.ok(taken < 16, `stopped taking bytes with 512 KiB gathered (${taken} pieces)`);
    held.release();
    const rest = await feed(sink, 0);
    assert.equal(rest, 0);
    const sent = Array.from({ length: 16 }, (_, i) => piece(i));
    for (let i = taken + 1; i < 16; i++) await new Promise<void>((r) => sink.write(piece(i), () => r()));
    await new Promise<void>((resolve, reject) => sink.end((e?: Error | null) => (e ? reject(e) : resolve())));
    const want = Buffer.concat(sent);
    assert.ok(fs.readFileSync(file).equals(want), 'the file holds every byte, in order');
    assert.equal(sink.position, want.length);
    assert.equal(hash.digest('hex'), crypto.createHash('sha256').update(want).digest('hex'));
  } finally {
    await sink.stop();
    await held.real.close();
  }
});

test('after a failed write nothing more is written: bytes gathered behind it never land where the failed ones belonged', async () => {
  const file = path.join(tempDir('wedding-sink-'), 'upload');
  const held = await heldFile(file);
  const sink = new FileSink({ file: held.handle, position: 0, hash: crypto.createHash('sha256'), limit: 16 << 20, tooLarge: () => new Error('too large') as never, body: arrived });
  const errors: Error[] = [];
  sink.on('error', (e) => errors.push(e));
  try {
    const taken = await feed(sink, 16);
    assert.ok(taken >= 8, 'bytes gathered behind the write under way');
    held.fail(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }));
    await new Promise((r) => setTimeout(r, 50));
    // The connection is cut: what arrived is kept for a resume, as far as the file is whole.
    await sink.keepReceived();
    assert.equal(sink.position, 0, 'nothing counted as written');
    assert.equal(sink.synced, 0);
    assert.equal(sink.hashAhead, true, 'the hash took in bytes the file lacks: the owner rebuilds it');
    assert.equal(fs.statSync(file).size, 0, 'no later bytes written in place of the failed batch');
    assert.equal(errors[0]?.message, 'ENOSPC: no space left on device');
  } finally {
    await held.real.close();
  }
});

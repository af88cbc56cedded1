/**
 * A small streaming reader for the tar archives our backups are (ustar as written by archiver,
 * plus pax and GNU long names so a hand-made `tar czf` of a data folder restores too).
 * Kept here rather than pulling in a tar package: the project's dependencies stay as they are.
 */

export interface TarEntry {
  /** Normalized relative path with forward slashes, no trailing slash. */
  name: string;
  type: 'file' | 'directory' | 'other';
  size: number;
  mode: number;
  mtime: Date;
}

/** Reads exact byte counts from an async stream of chunks. */
class ByteReader {
  private buf: Buffer = Buffer.alloc(0);
  private done = false;
  private readonly it: AsyncIterator<Buffer>;

  constructor(src: AsyncIterable<Buffer>) {
    this.it = src[Symbol.asyncIterator]();
  }

  private async fill(): Promise<boolean> {
    if (this.done) return false;
    const r = await this.it.next();
    if (r.done) {
      this.done = true;
      return false;
    }
    this.buf = this.buf.length ? Buffer.concat([this.buf, r.value]) : r.value;
    return true;
  }

  /** Exactly n bytes, or fewer at the end of the stream. */
  async read(n: number): Promise<Buffer> {
    while (this.buf.length < n && (await this.fill()));
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(out.length);
    return out;
  }

  /** n bytes as a series of chunks, without holding them all in memory. */
  async *chunks(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (this.buf.length === 0 && !(await this.fill())) throw new TarError('The archive ends in the middle of a file (is it complete?)');
      const take = this.buf.subarray(0, Math.min(left, this.buf.length));
      this.buf = this.buf.subarray(take.length);
      left -= take.length;
      yield take;
    }
  }

  async skip(n: number): Promise<void> {
    for await (const _ of this.chunks(n)) void _;
  }
}

export class TarError extends Error {}

function text(block: Buffer, start: number, len: number): string {
  const raw = block.subarray(start, start + len);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? raw.length : end).toString('utf8');
}

function octal(block: Buffer, start: number, len: number): number {
  // GNU base-256 for values that do not fit in octal (files over 8 GiB)
  if (block[start] & 0x80) {
    let v = 0;
    for (let i = start + 1; i < start + len; i++) v = v * 256 + block[i];
    return v;
  }
  const s = text(block, start, len).trim();
  return s === '' ? 0 : parseInt(s, 8);
}

function checksumOk(block: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : block[i];
  return sum === octal(block, 148, 8);
}

function parsePax(body: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < body.length) {
    const space = body.indexOf(0x20, i);
    if (space === -1) break;
    const len = parseInt(body.subarray(i, space).toString('utf8'), 10);
    if (!(len > 0)) break;
    const record = body.subarray(space + 1, i + len - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq > 0) out[record.slice(0, eq)] = record.slice(eq + 1);
    i += len;
  }
  return out;
}

/** Refuses names that would land outside the folder being restored into. */
export function safeEntryName(raw: string): string {
  const name = raw.replace(/\\/g, '/').replace(/^\.\/+/, '').replace(/\/+$/, '');
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 && /^\.?\/?$/.test(raw)) return ''; // "./": the folder itself, from `tar czf x -C dir .`
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw) || parts.some((p) => p === '..') || parts.length === 0) {
    throw new TarError(`The archive holds an unsafe path: ${JSON.stringify(raw)}`);
  }
  return parts.join('/');
}

const pad = (n: number) => (512 - (n % 512)) % 512;

/**
 * Calls onEntry for every entry; for files, `body` must be consumed (or it is skipped).
 * Throws TarError on a damaged archive.
 */
export async function readTar(
  src: AsyncIterable<Buffer>,
  onEntry: (entry: TarEntry, body: AsyncIterable<Buffer>) => Promise<void>,
): Promise<void> {
  const r = new ByteReader(src);
  let longName: string | undefined;
  let pax: Record<string, string> = {};
  let sawEnd = false;
  for (;;) {
    const block = await r.read(512);
    if (block.length === 0) break;
    if (block.length < 512) throw new TarError('The archive ends in the middle of a header (is it complete?)');
    if (block.every((b) => b === 0)) {
      sawEnd = true;
      break;
    }
    if (!checksumOk(block)) throw new TarError('The archive is damaged (a header checksum does not match)');
    const flag = String.fromCharCode(block[156] || 48);
    let size = octal(block, 124, 12);
    if (flag === 'x' || flag === 'g' || flag === 'L') {
      const body = await r.read(size);
      await r.read(pad(size));
      if (flag === 'x') pax = parsePax(body);
      if (flag === 'L') longName = text(body, 0, body.length);
      continue;
    }
    const magic = text(block, 257, 6);
    const prefix = magic.startsWith('ustar') ? text(block, 345, 155) : '';
    const rawName = pax.path ?? longName ?? (prefix ? `${prefix}/${text(block, 0, 100)}` : text(block, 0, 100));
    if (pax.size !== undefined) size = Number(pax.size);
    longName = undefined;
    pax = {};
    const type: TarEntry['type'] = flag === '0' || flag === '7' ? 'file' : flag === '5' ? 'directory' : 'other';
    // Links and devices carry no data in the archive; their size field is not a length to skip.
    const dataLen = type === 'file' || (type === 'other' && !'123456'.includes(flag)) ? size : 0;
    const entry: TarEntry = {
      name: safeEntryName(rawName),
      type,
      size: type === 'directory' ? 0 : size,
      mode: octal(block, 100, 8) & 0o7777,
      mtime: new Date(octal(block, 136, 12) * 1000),
    };
    if (entry.name === '') {
      await r.skip(dataLen);
      await r.read(pad(dataLen));
      continue;
    }
    let consumed = false;
    const body = (async function* () {
      consumed = true;
      yield* r.chunks(dataLen);
    })();
    await onEntry(entry, body);
    if (!consumed) await r.skip(dataLen);
    await r.read(pad(dataLen));
  }
  if (!sawEnd) throw new TarError('The archive ends without its closing block (is it complete?)');
}

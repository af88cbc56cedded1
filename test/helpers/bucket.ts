// A real S3-compatible server on loopback (s3rver: objects as files, multipart and presigned
// URLs; it checks neither signatures nor keys, so signing stays the client library's job), and a
// small proxy in front of it that can answer 503, refuse connections or cut a request short.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { tempDir } from './temp.js';

export const BUCKET = 'wedding-offsite';

export type ProxyMode = 'pass' | '503' | '500' | 'refuse' | 'hold-parts';

export interface TestBucket {
  /** The proxy's address: what the site is given as S3_ENDPOINT. */
  endpoint: string;
  /** s3rver itself (tests that need no faults may use it directly). */
  direct: string;
  env: Record<string, string>;
  client: S3Client;
  /** Every request the proxy saw: method, path (bucket and key) and query, and its answer. */
  requests: { method: string; key: string; query: string; status: number }[];
  mode: ProxyMode;
  /** In 'hold-parts': part uploads past this many are held (never answered) until the mode changes. */
  partsAllowed: number;
  keys(prefix?: string): Promise<string[]>;
  bytes(key: string): Promise<Buffer>;
  sha256(key: string): Promise<string>;
  close(): Promise<void>;
}

export async function startBucket(opts: { createBucket?: boolean; prefix?: string } = {}): Promise<TestBucket> {
  const dir = tempDir('s3rver-');
  const s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: dir });
  const { port } = (await s3.run()) as AddressInfo;
  const direct = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint: direct,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  if (opts.createBucket !== false) await client.send(new CreateBucketCommand({ Bucket: BUCKET }));

  const held: http.ServerResponse[] = [];
  const state = { mode: 'pass' as ProxyMode, partsAllowed: 0, partsSeen: 0 };
  const requests: TestBucket['requests'] = [];
  const proxy = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', direct);
    const key = decodeURIComponent(url.pathname.replace(/^\/[^/]+\/?/, ''));
    const entry = { method: req.method ?? '', key, query: url.search, status: 0 };
    requests.push(entry);
    const fail = (status: number) => {
      entry.status = status;
      req.resume();
      res.writeHead(status, { 'content-type': 'application/xml' });
      res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${status === 503 ? 'ServiceUnavailable' : 'InternalError'}</Code><Message>Test proxy</Message></Error>`);
    };
    if (state.mode === '503') return fail(503);
    if (state.mode === '500') return fail(500);
    if (state.mode === 'refuse') {
      entry.status = -1;
      return req.socket.destroy();
    }
    if (state.mode === 'hold-parts' && req.method === 'PUT' && url.searchParams.has('partNumber') && ++state.partsSeen > state.partsAllowed) {
      entry.status = -2;
      held.push(res);
      return; // never answered: the client waits (until it is killed)
    }
    const up = http.request(direct + (req.url ?? '/'), { method: req.method, headers: req.headers }, (answer) => {
      entry.status = answer.statusCode ?? 0;
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

  const keys = async (prefix = '') => {
    const out: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix, ContinuationToken: token }));
      for (const o of page.Contents ?? []) out.push(o.Key!);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out;
  };
  const bytes = async (key: string) => Buffer.from(await (await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))).Body!.transformToByteArray());

  const b: TestBucket = {
    endpoint,
    direct,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: BUCKET,
      S3_ACCESS_KEY_ID: 'S3RVER',
      // s3rver checks no key: a secret of its own lets tests see it is never sent back.
      S3_SECRET_ACCESS_KEY: 'test-secret-never-shown',
      S3_REGION: 'us-east-1',
      ...(opts.prefix ? { S3_PREFIX: opts.prefix } : {}),
    },
    client,
    requests,
    get mode() {
      return state.mode;
    },
    set mode(m: ProxyMode) {
      state.mode = m;
      state.partsSeen = 0;
      if (m !== 'hold-parts') for (const r of held.splice(0)) r.destroy();
    },
    get partsAllowed() {
      return state.partsAllowed;
    },
    set partsAllowed(n: number) {
      state.partsAllowed = n;
    },
    keys,
    bytes,
    sha256: async (key) => crypto.createHash('sha256').update(await bytes(key)).digest('hex'),
    close: async () => {
      for (const r of held.splice(0)) r.destroy();
      proxy.closeAllConnections();
      await new Promise<void>((r) => proxy.close(() => r()));
      client.destroy();
      await s3.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return b;
}

/** Waits until `check` holds (polled), or fails with `what`. */
export async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Timed out waiting for: ${what}`);
}

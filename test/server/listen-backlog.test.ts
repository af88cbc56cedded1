import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { canSharePort, LISTENING_SOCKETS } from '../../server/http/listen.js';
import { LISTEN_BACKLOG } from '../../server/server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// At the peak hundreds of phones open a connection within a second while the server is busy. The
// kernel holds finished handshakes until the server takes them; when that queue is full it drops
// them and each phone tries again only after 1 s, then 2 s more.

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const port = () => Number(new URL(s.url).port);

test('the server listens with a queue of 4096 waiting connections (Node would take 511)', () => {
  const out = spawnSync('ss', ['-ltnH', `sport = :${port()}`], { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  // For a listening socket, ss shows the queue's size as Send-Q (the fourth column's neighbour).
  const [, , sendQ] = out.stdout.trim().split(/\s+/);
  assert.equal(Number(sendQ), Math.min(LISTEN_BACKLOG, Number(spawnSync('sysctl', ['-n', 'net.core.somaxconn'], { encoding: 'utf8' }).stdout)));
  assert.ok(Number(sendQ) >= 1024, out.stdout);
});

// 800 phones connect at once (from another process) while the server's thread is held for 1.5 s.
const PHONES = `
const net = require('node:net');
const [port, n] = process.argv.slice(1).map(Number);
const t0 = Date.now();
let left = n;
const times = [];
for (let i = 0; i < n; i++) {
  const c = net.connect(port, '127.0.0.1', () => c.write('GET /api/health HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n'));
  let got = false;
  c.on('data', () => { if (!got) { got = true; times.push(Date.now() - t0); } });
  c.on('error', () => {});
  c.on('close', () => { if (--left === 0) { console.log(JSON.stringify(times)); } });
}
`;

/** The kernel's count of handshakes dropped because a listening queue was full (since boot). */
function listenOverflows(): number {
  const lines = fs.readFileSync('/proc/net/netstat', 'utf8').split('\n').filter((l) => l.startsWith('TcpExt:'));
  const [names, values] = lines.map((l) => l.split(/\s+/));
  return Number(values[names.indexOf('ListenOverflows')]);
}

test('800 phones connecting while the server is busy for 1.5 s are all answered, and no handshake is dropped', async () => {
  const dropped = listenOverflows();
  const child = spawn(process.execPath, ['-e', PHONES, String(port()), '800'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  // Let the child start and send its handshakes, then hold this process's thread as a burst of work would.
  await new Promise((r) => setTimeout(r, 300));
  const until = Date.now() + 1500;
  while (Date.now() < until);
  await new Promise<void>((resolve) => child.on('close', () => resolve()));
  const times = JSON.parse(out) as number[];
  assert.equal(times.length, 800, 'every phone got an answer');
  // With Node's default queue of 511 this drops handshakes (each then waits for a retry).
  assert.equal(listenOverflows() - dropped, 0, 'handshakes dropped because the queue was full');
});

test('where Node can share a port (22.12 and later, as the image runs), 64 sockets listen on it, and a busy server lets in many new connections a turn, not one', async () => {
  const lines = spawnSync('ss', ['-ltnH', `sport = :${port()}`], { encoding: 'utf8' }).stdout.trim().split('\n');
  const sharing = canSharePort();
  assert.equal(lines.length, sharing ? LISTENING_SOCKETS : 1, lines.join('\n'));
  assert.equal(canSharePort('20.19.0'), false);
  assert.equal(canSharePort('22.12.0'), true);
  assert.equal(canSharePort('24.1.0'), true);

  // 200 phones connect at once while the server's thread works in turns of 20 ms: count how many
  // connections each turn takes in.
  let accepted = 0;
  const count = () => accepted++;
  s.server.on('connection', count);
  const child = spawn(process.execPath, ['-e', PHONES, String(port()), '200'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  try {
    // Busy from before the phones connect, so that they arrive while a turn is under way.
    const perTurn: number[] = [];
    for (let turn = 0; turn < 1000 && accepted < 200; turn++) {
      const before = accepted;
      const until = Date.now() + 20;
      while (Date.now() < until);
      await new Promise((r) => setImmediate(r));
      perTurn.push(accepted - before);
    }
    assert.equal(accepted, 200, 'every connection was taken in');
    if (sharing) {
      assert.ok(Math.max(...perTurn) >= 8, `up to ${Math.max(...perTurn)} a turn`);
      assert.ok(perTurn.length <= 60, `all 200 in ${perTurn.length} turns`);
    }
  } finally {
    s.server.off('connection', count);
    await closed;
  }
  assert.equal((JSON.parse(out) as number[]).length, 200, 'every phone got an answer');
});

test('every connection, whichever socket took it, is set up as the HTTP server sets up its own: a phone that closes its side after sending still gets its answer', async () => {
  const seen: net.Socket[] = [];
  const onConnection = (socket: net.Socket) => seen.push(socket);
  s.server.on('connection', onConnection);
  try {
    const answers = await Promise.all(
      Array.from({ length: 48 }, () =>
        new Promise<string>((resolve, reject) => {
          const c = net.connect(port(), '127.0.0.1', () => c.end('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n'));
          let got = '';
          c.on('data', (d) => (got += d));
          c.on('end', () => resolve(got));
          c.on('error', reject);
        }),
      ),
    );
    for (const a of answers) assert.match(a, /^HTTP\/1\.1 200/);
  } finally {
    s.server.off('connection', onConnection);
  }
  assert.equal(seen.length, 48);
  for (const socket of seen) assert.equal(socket.allowHalfOpen, true);
});

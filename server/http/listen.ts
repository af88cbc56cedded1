import type http from 'node:http';
import net from 'node:net';

/**
 * Connections the kernel may hold ready before the server takes them (Linux caps it at
 * net.core.somaxconn, 4096 by default). Node's default of 511 overflows when hundreds of phones
 * connect within a second while uploads keep the server busy: an overflowing queue drops the
 * handshake and the phone tries again only after 1 s, then 2 s more, so a guest who opens the
 * page at the peak waited 3 s or more for a first answer the server gives in milliseconds.
 */
export const LISTEN_BACKLOG = 4096;

/**
 * Listening sockets on the one port, where Node can share a port between them (SO_REUSEPORT:
 * Node 22.12 and later, as the image runs). Node's event loop takes one new connection per
 * listening socket per turn, and a turn at the peak of an upload rush lasts tens of
 * milliseconds: with one socket, 20 to 40 phones a second were let in while hundreds waited in
 * the kernel's queue, each for seconds, before the server had even read their first request.
 * The kernel spreads new connections over the sockets, and each turn takes one from each. With
 * 16 a harsh rush's first seconds (300 uploads and 100 phones opening the page within 2 s, turns
 * of 100-300 ms while the machine's two cores are short) still kept phones 1.4-2 s in the queue;
 * with 64, p99 350-660 ms. A socket costs a descriptor and nothing while idle.
 */
export const LISTENING_SOCKETS = 64;

/** Whether this Node can share a port between listening sockets (the `reusePort` listen option). */
export function canSharePort(version = process.versions.node): boolean {
  const [major, minor] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 12);
}

export interface Listening {
  /**
   * Stops the extra sockets (the server's own is closed by server.close()); resolves once the
   * connections they took have ended (the server's own 'close' does not wait for those).
   */
  close(): Promise<void>;
}

/**
 * Starts `server` listening on host:port, with LISTENING_SOCKETS sockets where Node supports it.
 * Connections taken by the extra sockets are handed to the server as its own ('connection').
 */
export async function listen(server: http.Server, port: number, host: string, sockets = LISTENING_SOCKETS): Promise<Listening> {
  const shared = sockets > 1 && canSharePort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, backlog: LISTEN_BACKLOG, ...(shared ? { reusePort: true } : {}) }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const extras: net.Server[] = [];
  const close = () => Promise.all(extras.map((e) => new Promise<void>((r) => e.close(() => r())))).then(() => undefined);
  if (!shared) return { close };
  // Port 0 (tests) picks a free port for the first socket; the others join that port.
  const bound = (server.address() as net.AddressInfo).port;
  // Their connections get the socket options the HTTP server gives its own (half-open allowed:
  // a phone that closes its side after sending still gets its answer; no Nagle delay).
  const own = server as unknown as net.ServerOpts;
  const options: net.ServerOpts = {
    allowHalfOpen: own.allowHalfOpen,
    noDelay: own.noDelay,
    keepAlive: own.keepAlive,
    keepAliveInitialDelay: own.keepAliveInitialDelay,
    highWaterMark: own.highWaterMark,
  };
  try {
    for (let i = 1; i < sockets; i++) {
      const extra = net.createServer(options, (socket) => server.emit('connection', socket));
      await new Promise<void>((resolve, reject) => {
        extra.once('error', reject);
        extra.listen({ port: bound, host, backlog: LISTEN_BACKLOG, reusePort: true } as net.ListenOptions, () => {
          extra.off('error', reject);
          resolve();
        });
      });
      extras.push(extra);
    }
  } catch (e) {
    void close();
    server.close();
    throw e;
  }
  server.once('close', () => void close());
  return { close };
}

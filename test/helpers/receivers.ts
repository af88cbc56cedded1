import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** An HTTP server on loopback that keeps every request (ntfy and webhooks). `status` is what it answers. */
export async function httpReceiver(status = 200): Promise<{ url: string; got: Received[]; next(): Promise<Received>; setStatus(s: number): void; close(): Promise<void> }> {
  const got: Received[] = [];
  const waiters: ((r: Received) => void)[] = [];
  let answer = status;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      got.push(r);
      waiters.shift()?.(r);
      res.writeHead(answer, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    got,
    /** The next request to arrive (or the first not yet taken by an earlier call). */
    next: () => new Promise((resolve) => waiters.push(resolve)),
    setStatus: (s) => (answer = s),
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** A server that takes connections and requests and never answers them. */
export async function silentReceiver(): Promise<{ url: string; requests: () => number; open: () => number; close(): Promise<void> }> {
  let n = 0;
  let open = 0;
  const server = http.createServer((req) => {
    n++; // never answered
    open++;
    req.socket.once('close', () => open--);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => n,
    /** Requests still held open by their sender. */
    open: () => open,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

export interface Mail {
  from: string;
  to: string[];
  user: string | undefined;
  raw: string;
}

/** An SMTP server on loopback (smtp-server) requiring the login `user`/`pass`; keeps every message. */
export async function smtpReceiver(user = 'wedding', pass = 'smtp-secret'): Promise<{ port: number; mails: Mail[]; next(): Promise<Mail>; close(): Promise<void> }> {
  const mails: Mail[] = [];
  const waiters: ((m: Mail) => void)[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: false,
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === user && auth.password === pass) cb(null, { user: auth.username });
      else cb(new Error('Invalid username or password'));
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const m: Mail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: session.user as string | undefined,
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        mails.push(m);
        waiters.shift()?.(m);
        cb();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    mails,
    next: () => new Promise((resolve) => waiters.push(resolve)),
    close: () => new Promise((r) => server.close(() => r())),
  };
}

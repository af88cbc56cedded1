// The database writer: a worker thread of the server process holding the one connection that
// writes. A write to the database file can wait on the disk for seconds when uploads have filled
// the kernel's write-back queue; here that wait holds only this thread, never the event loop
// that answers the gallery. Protocol: server/db/writer-protocol.ts; the other side: db/writer.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite } from './db/open.js';
import { runStatement, type FromWriter, type ToWriter, type WriterData } from './db/writer-protocol.js';

const port = parentPort!;
const setup = workerData as WriterData;
const db = openSqlite(setup.file);
const answered = new Int32Array(setup.answered);
const send = (m: FromWriter) => {
  setup.answers.postMessage(m);
  Atomics.add(answered, 0, 1);
  Atomics.notify(answered, 0); // the main thread may be waiting a moment for this answer
};

port.on('message', (m: ToWriter) => {
  if (m.type === 'close') {
    db.close();
    send({ type: 'closed' });
    setup.answers.close();
    port.close();
    return;
  }
  try {
    send({ type: 'done', id: m.id, ...runStatement(db, m.sql, m.params) });
  } catch (e) {
    const err = e as { message?: string; code?: unknown };
    send({ type: 'failed', id: m.id, error: { message: String(err?.message ?? e), code: typeof err?.code === 'string' ? err.code : undefined } });
  }
});

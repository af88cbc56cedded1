import type { StoredUpload, UploadStore } from './store';

const DB_NAME = 'wedding-uploads';
const ITEMS = 'items';
const FILES = 'files';

function done<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** Resolves when the transaction is committed; rejects when it aborts (quota full, storage refused). */
function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error ?? new Error('storage refused'));
    tx.onerror = () => reject(tx.error ?? new Error('storage refused'));
  });
}

/** The upload queue in IndexedDB: records in one object store, file bytes in another. */
class IdbUploadStore implements UploadStore {
  constructor(private readonly db: IDBDatabase) {}

  private write(stores: string[], fn: (tx: IDBTransaction) => void): Promise<void> {
    try {
      const tx = this.db.transaction(stores, 'readwrite');
      const result = committed(tx);
      fn(tx);
      return result;
    } catch (err) {
      return Promise.reject(err);
    }
  }

  add(rec: StoredUpload, file: Blob): Promise<void> {
    return this.write([ITEMS, FILES], (tx) => {
      tx.objectStore(ITEMS).put(rec);
      tx.objectStore(FILES).put(file, rec.id);
    });
  }

  put(rec: StoredUpload): Promise<void> {
    return this.write([ITEMS], (tx) => tx.objectStore(ITEMS).put(rec));
  }

  dropFile(id: string): Promise<void> {
    return this.write([FILES], (tx) => tx.objectStore(FILES).delete(id));
  }

  remove(ids: readonly string[]): Promise<void> {
    return this.write([ITEMS, FILES], (tx) => {
      for (const id of ids) {
        tx.objectStore(ITEMS).delete(id);
        tx.objectStore(FILES).delete(id);
      }
    });
  }

  async load(): Promise<{ rec: StoredUpload; file: Blob | null }[]> {
    // Every read is asked for at once: a transaction may close between awaits in older browsers.
    const tx = this.db.transaction([ITEMS, FILES], 'readonly');
    const [recs, keys, blobs] = await Promise.all([
      done(tx.objectStore(ITEMS).getAll()) as Promise<StoredUpload[]>,
      done(tx.objectStore(FILES).getAllKeys()),
      done(tx.objectStore(FILES).getAll()) as Promise<Blob[]>,
    ]);
    const files = new Map(keys.map((k, i) => [String(k), blobs[i]]));
    return recs.map((rec) => ({ rec, file: files.get(rec.id) ?? null })).sort((a, b) => a.rec.seq - b.rec.seq);
  }
}

/** Opens the store, or null where the browser has no usable IndexedDB (some private modes, storage blocked). */
export async function openUploadStore(): Promise<UploadStore | null> {
  try {
    if (typeof indexedDB === 'undefined') return null;
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => {
      req.result.createObjectStore(ITEMS, { keyPath: 'id' });
      req.result.createObjectStore(FILES);
    };
    return new IdbUploadStore(await done(req));
  } catch {
    return null;
  }
}

import type { Transport, TransportResponse } from './types';

/** The browser transport: XMLHttpRequest, because fetch cannot report upload progress. */
export const xhrTransport: Transport = (req) =>
  new Promise<TransportResponse>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(req.method, req.url);
    xhr.withCredentials = true;
    if (req.onUploadProgress && req.body) {
      const report = req.onUploadProgress;
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) report(e.loaded, e.total);
      };
    }
    xhr.onload = () =>
      resolve({ status: xhr.status, statusText: xhr.statusText, body: xhr.responseText, retryAfter: xhr.getResponseHeader('Retry-After') });
    xhr.onerror = () => reject(new Error('network'));
    xhr.onabort = () => reject(new Error('aborted'));
    xhr.ontimeout = () => reject(new Error('timeout'));
    if (req.signal.aborted) return reject(new Error('aborted'));
    req.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(req.body ?? null);
  });

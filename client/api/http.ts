import type { ErrorCode } from '../../common/api-types';

/**
 * Thrown for non-2xx answers; carries the status, the server's error sentence (for display)
 * and its machine `code` (for decisions; undefined when the answer is not the API's JSON).
 */
export class ApiError extends Error {
  readonly code: ErrorCode | undefined;

  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown = null,
  ) {
    super(message);
    const code = body && typeof body === 'object' ? (body as { code?: unknown }).code : undefined;
    this.code = typeof code === 'string' ? (code as ErrorCode) : undefined;
  }
}

declare global {
  // eslint-disable-next-line no-var
  var __early: Record<string, Promise<Response>> | undefined;
}

/**
 * An answer the page's head already asked for (server/http/index-page.ts), taken once; later
 * calls for the same address fetch anew.
 */
export function early(url: string): Promise<Response> | undefined {
  const got = globalThis.__early?.[url];
  if (got) delete globalThis.__early![url];
  return got;
}

let written: Record<string, unknown> | undefined;

/**
 * An API answer the server wrote into the page with the markup of its first screen
 * (server/http/index-page.ts), taken once: the page's first render shows what that markup showed.
 */
export function earlyAnswer<T>(url: string): T | undefined {
  written ??= JSON.parse(document.getElementById('early-answers')?.textContent || '{}') as Record<string, unknown>;
  const got = written[url] as T | undefined;
  delete written[url];
  return got;
}

/** fetch, through an answer the head asked for when there is one. */
export const fetchFirst = (url: string, init?: RequestInit): Promise<Response> => early(url) ?? fetch(url, init);

async function read(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** fetch + JSON with credentials; rejects with ApiError carrying the server's `error` and `code`. */
export async function request<T>(method: string, url: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, credentials: 'include', headers: {} };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
  }
  const res = await (method === 'GET' ? fetchFirst(url, init) : fetch(url, init));
  const data = await read(res);
  if (!res.ok) {
    const msg =
      data && typeof data === 'object' && typeof (data as { error?: unknown }).error === 'string'
        ? (data as { error: string }).error
        : res.statusText || `Request failed with status ${res.status}`;
    throw new ApiError(res.status, msg, data);
  }
  return data as T;
}

export const getJson = <T>(url: string) => request<T>('GET', url);
export const postJson = <T>(url: string, body?: unknown) => request<T>('POST', url, body);
export const putJson = <T>(url: string, body?: unknown) => request<T>('PUT', url, body);
export const deleteJson = <T>(url: string, body?: unknown) => request<T>('DELETE', url, body);

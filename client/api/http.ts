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
  const res = await fetch(url, init);
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

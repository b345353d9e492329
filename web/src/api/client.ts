import type { ErrorCode } from '@olympe/contract';
import { readRefreshToken, readToken, tokenExpiry, writeToken } from '../session/token';
import { takeEarlyResponse } from './early-requests';
import { showNotice } from './notify';

/**
 * The one HTTP client of the app (docs/product.md, decision 56): a small typed wrapper over `fetch` with
 * the call surface the api modules use — `api.get<T>(url, options)` resolving to `{ data }`, failures
 * rejected as `ApiError` — a fixed base, a 30 s timeout, the bearer token read at each call, and the
 * success/error notifications.
 */

export const API_BASE = '/api';
export const API_TIMEOUT_MS = 30000;
export const NETWORK_ERROR_MESSAGE = 'Erreur réseau : Le serveur ne répond pas.';
export const GENERIC_ERROR_MESSAGE = 'Une erreur est survenue';

export interface RequestOptions {
  /** Background calls (e.g. the home page's contact address, autosaves) must not raise notifications. */
  skipNotifications?: boolean;
  /** Query string: each own property, `null`/`undefined` ones left out, others as `String(value)`. */
  params?: object;
  /** How the body is read: JSON (default; an empty body gives `undefined`), text, Blob or ArrayBuffer. */
  responseType?: 'json' | 'text' | 'blob' | 'arraybuffer';
  headers?: Record<string, string>;
  /** Cancels the call (TanStack Query passes one to query functions); a cancelled call is never notified. */
  signal?: AbortSignal;
  /** Milliseconds before the call fails as a network error; `API_TIMEOUT_MS` by default. */
  timeout?: number;
}

export interface ApiResponse<T> {
  data: T;
  status: number;
  headers: Headers;
}

/** Why a call failed without an HTTP answer (`kind`), or the HTTP answer itself (`response`). */
export type ApiErrorKind = 'http' | 'network' | 'timeout' | 'aborted';

/**
 * A failed call. `response` is set when the server answered (status and parsed body); `status`,
 * `code` and `message` are read from it — `code` is the stable code of decision 51 — so callers
 * branch on `error.code` or `error.status`, never on a copied French string.
 */
export class ApiError<T = unknown> extends Error {
  readonly kind: ApiErrorKind;
  readonly response: { status: number; data: T; headers: Headers } | undefined;
  readonly status: number | undefined;
  readonly code: ErrorCode | undefined;

  constructor(kind: ApiErrorKind, response?: { status: number; data: T; headers?: Headers }, options?: { cause?: unknown }) {
    const serverMessage = response ? messageOf(response.data) : null;
    super(serverMessage ?? (kind === 'http' ? `HTTP ${response?.status}` : kind), options);
    this.name = 'ApiError';
    this.kind = kind;
    this.response = response && { status: response.status, data: response.data, headers: response.headers ?? new Headers() };
    this.status = response?.status;
    this.code = response ? codeOf(response.data) : undefined;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * What the server said when it refused a request: its French message and, for a form, its
 * per-field messages (`{ message, fields }` bodies of 400s). Null when the server did not answer.
 */
export function refusalOf(error: unknown): { message: string | null; fields: Record<string, string> } | null {
  if (!isApiError(error) || !error.response) return null;
  const { data } = error.response;
  const fields =
    data && typeof data === 'object' && 'fields' in data && data.fields && typeof data.fields === 'object'
      ? (data.fields as Record<string, string>)
      : {};
  return { message: messageOf(data), fields };
}

/** A failure with no answer from the server (offline, timeout): worth trying again later. */
export function isNetworkError(error: unknown): boolean {
  return isApiError(error) && (error.kind === 'network' || error.kind === 'timeout');
}

function messageOf(data: unknown): string | null {
  if (data && typeof data === 'object' && 'message' in data) {
    const { message } = data as { message: unknown };
    if (typeof message === 'string' && message.length > 0) return message;
  }
  return null;
}

function codeOf(data: unknown): ErrorCode | undefined {
  if (data && typeof data === 'object' && 'code' in data) {
    const { code } = data as { code: unknown };
    if (typeof code === 'string') return code as ErrorCode;
  }
  return undefined;
}

/** Green notice for a success carrying `message` (docs/product.md: notifications). */
export function handleSuccess<T>(response: ApiResponse<T>, options: RequestOptions = {}): ApiResponse<T> {
  if (!options.skipNotifications) {
    const message = messageOf(response.data);
    if (message) showNotice(message, 'green');
  }
  return response;
}

/**
 * A server error in red with its message, no response at all as a network error. Pages that run several
 * quiet calls and report one outcome call this with the error they caught.
 */
export function notifyError(error: unknown): void {
  // One network notice at a time, however many calls fail together or retry.
  if (isNetworkError(error)) showNotice(NETWORK_ERROR_MESSAGE, 'red', { id: 'network-error' });
  else {
    const message = isApiError(error) && error.response ? messageOf(error.response.data) : null;
    showNotice(message ? `Erreur : ${message}` : GENERIC_ERROR_MESSAGE, 'red');
  }
}

function handleError(error: unknown, options: RequestOptions): Promise<never> {
  if (!options.skipNotifications && !(isApiError(error) && error.kind === 'aborted')) notifyError(error);
  return Promise.reject(error);
}

function urlOf(path: string, params: RequestOptions['params']): string {
  const url = API_BASE + (path.startsWith('/') ? path : `/${path}`);
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {}) as [string, unknown][]) {
    if (value !== null && value !== undefined) query.append(key, String(value));
  }
  const qs = query.toString();
  return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url;
}

/** JSON unless the body is already one `fetch` sends as is (multipart, file, text). */
function bodyOf(body: unknown, headers: Headers): BodyInit | undefined {
  if (body === undefined || body === null) return undefined;
  if (
    typeof body === 'string' ||
    body instanceof FormData ||
    body instanceof Blob ||
    body instanceof URLSearchParams ||
    body instanceof ArrayBuffer
  ) {
    return body;
  }
  headers.set('Content-Type', 'application/json');
  return JSON.stringify(body);
}

async function readBody(response: Response, type: RequestOptions['responseType']): Promise<unknown> {
  if (type === 'blob') return response.blob();
  if (type === 'arraybuffer') return response.arrayBuffer();
  const text = await response.text();
  if (type === 'text') return text;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // A proxy's HTML error page or a plain-text body: handed over as text, as axios did.
    return text;
  }
}

/** The refresh in flight, shared by every call refused meanwhile: one POST /auth/refresh at a time. */
let refreshing: { refreshToken: string; token: Promise<string | null> } | null = null;

/**
 * Decision 136: a new access token for the session of `refreshToken`, after `stale` was refused. Resolves to
 * null when the server refuses the session (logged out, password changed: the caller's 401 stands), rejects
 * with the network error when it could not be asked (the caller retries later, as after any cut). The new
 * token is stored only while that session is still the browser's (not after a logout or another login).
 */
export function renewToken(stale: string, refreshToken: string): Promise<string | null> {
  const current = readToken();
  // Another call already renewed it.
  if (current && current !== stale && readRefreshToken() === refreshToken) return Promise.resolve(current);
  if (refreshing?.refreshToken === refreshToken) return refreshing.token;
  const flight = send<{ token: string }>('POST', '/auth/refresh', { refreshToken }, { skipNotifications: true }, null).then(
    ({ data }) => {
      if (readRefreshToken() === refreshToken) writeToken(data.token);
      return data.token;
    },
    (error: unknown) => {
      if (isApiError(error) && error.kind === 'http' && error.status !== undefined && error.status < 500) return null;
      throw error;
    },
  );
  refreshing = { refreshToken, token: flight };
  flight
    .finally(() => {
      if (refreshing?.token === flight) refreshing = null;
    })
    .catch(() => undefined);
  return flight;
}

/**
 * The stored token, renewed first when it expires within a minute: for requests this client does not send
 * (the resumable uploads' own, api/uploads.ts), which cannot be retried after a 401.
 */
export async function freshToken(): Promise<string | null> {
  const token = readToken();
  const refreshToken = readRefreshToken();
  const expiry = tokenExpiry(token);
  if (!token || !refreshToken || expiry === undefined || expiry - Date.now() > 60_000) return token;
  return (await renewToken(token, refreshToken).catch(() => null)) ?? token;
}

/**
 * A call with the stored token; refused with 401 (the 15-minute token expired), it waits for one refresh of
 * the session and is sent once more with the new token, so that no caller — an answer in the queue during a
 * 3-hour test above all — sees the expiry. The token and the refresh token are those of the moment of the
 * call: a logout clears them meanwhile without stopping its own POST /auth/logout.
 */
async function sendRenewing<T>(method: string, path: string, body: unknown, options: RequestOptions): Promise<ApiResponse<T>> {
  // Read at request time, not at creation: login and logout change the token during the session.
  const token = readToken();
  const refreshToken = readRefreshToken();
  try {
    return await send<T>(method, path, body, options, token);
  } catch (error) {
    if (!(isApiError(error) && error.status === 401 && token && refreshToken)) throw error;
    const renewed = await renewToken(token, refreshToken);
    if (!renewed) throw error;
    return send<T>(method, path, body, options, renewed);
  }
}

async function send<T>(
  method: string,
  path: string,
  body: unknown,
  options: RequestOptions,
  token: string | null,
): Promise<ApiResponse<T>> {
  const headers = new Headers(options.headers);
  if (token) headers.set('Authorization', `Bearer ${token}`);

  // One controller for both ways a call ends early: the caller's signal, or the timeout.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeout ?? API_TIMEOUT_MS);
  const cancel = () => controller.abort();
  if (options.signal?.aborted) controller.abort();
  options.signal?.addEventListener('abort', cancel, { once: true });
  const failure = (cause: unknown) =>
    new ApiError(timedOut ? 'timeout' : controller.signal.aborted ? 'aborted' : 'network', undefined, { cause });
  try {
    let response: Response;
    try {
      const url = urlOf(path, options.params);
      const init = { method, headers, body: bodyOf(body, headers), signal: controller.signal };
      // The session's first calls may already be on their way (web/public/boot.js, decision 97). One that failed
      // (the page opened without a network) is as if never sent: this call goes to the network now, whenever the
      // app makes it, instead of reading a failure that may be long past.
      const early = takeEarlyResponse(method, url, init.body, token);
      response = await (early ? untilAborted(early, controller.signal).catch(() => fetch(url, init)) : fetch(url, init));
    } catch (cause) {
      throw failure(cause);
    }
    // An error body is JSON (`{ message, code }`) whatever the call expected.
    const data = await readBody(response, response.ok ? options.responseType : 'json').catch((cause: unknown) => {
      throw failure(cause);
    });
    if (!response.ok) throw new ApiError('http', { status: response.status, data, headers: response.headers });
    return { data: data as T, status: response.status, headers: response.headers };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', cancel);
  }
}

/** An answer already on its way, given up like a fetch when the call times out or is cancelled. */
function untilAborted(response: Promise<Response>, signal: AbortSignal): Promise<Response> {
  return new Promise((resolve, reject) => {
    signal.addEventListener('abort', () => reject(new DOMException('The call was aborted.', 'AbortError')), { once: true });
    response.then(resolve, reject);
  });
}

function call<T>(method: string, path: string, body: unknown, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  return sendRenewing<T>(method, path, body, options).then(
    (response) => handleSuccess(response, options),
    (error: unknown) => handleError(error, options),
  );
}

/*
 * The generics are axios's (`T` the body, `R` the resolved value), so code and test mocks written against
 * the former client compile unchanged: `api.get<User>(url)` resolves to `{ data: User, status, headers }`.
 */
export const api = {
  get: <T = any, R = ApiResponse<T>>(url: string, options?: RequestOptions): Promise<R> =>
    call<T>('GET', url, undefined, options) as Promise<R>,
  delete: <T = any, R = ApiResponse<T>>(url: string, options?: RequestOptions): Promise<R> =>
    call<T>('DELETE', url, undefined, options) as Promise<R>,
  post: <T = any, R = ApiResponse<T>>(url: string, body?: unknown, options?: RequestOptions): Promise<R> =>
    call<T>('POST', url, body, options) as Promise<R>,
  put: <T = any, R = ApiResponse<T>>(url: string, body?: unknown, options?: RequestOptions): Promise<R> =>
    call<T>('PUT', url, body, options) as Promise<R>,
  patch: <T = any, R = ApiResponse<T>>(url: string, body?: unknown, options?: RequestOptions): Promise<R> =>
    call<T>('PATCH', url, body, options) as Promise<R>,
};

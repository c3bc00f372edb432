import type { Envelope } from '@switchyard/shared';
import { clearStoredUser, getStoredUser } from '../lib/storage';
import { notify } from '../lib/notify';
import { t } from '../lib/i18n';

/** Thrown after the failure has already been shown to the user. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

type Query = Record<string, string | number | boolean | undefined | null>;

function withQuery(url: string, query?: Query): string {
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null) params.set(k, String(v));
  }
  const qs = params.toString();
  if (!qs) return url;
  return url + (url.includes('?') ? '&' : '?') + qs;
}

/** The spec's error catalogue for HTTP failures. */
export function httpErrorText(status: number, message: string): string {
  if (status === 429) return t('错误：请求次数过多，请稍后再试！');
  if (status === 500) return t('错误：服务器内部错误，请联系管理员！');
  if (status === 405) return t('本站仅作演示之用，无服务端！');
  return t('错误：{message}', { message });
}

/** A missing or expired session: forget the stored user and sign in again (spec §8: 401). */
export function redirectToLogin(): void {
  clearStoredUser();
  if (!window.location.pathname.startsWith('/login')) {
    window.location.href = '/login?expired=true';
  }
}

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** Keep quiet on success:false (the caller shows its own message). */
  silent?: boolean;
  /** Shown instead of '错误：<reason>' when the server cannot be reached. */
  networkErrorText?: string;
}

/**
 * One call to the console API. Resolves with the envelope when the server answered 2xx, whether success is true
 * or false (a false one is shown as an error toast unless silent). HTTP failures are shown and thrown as ApiError.
 */
export async function request<T = unknown>(method: string, url: string, opts: RequestOptions = {}): Promise<Envelope<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const user = getStoredUser();
  headers['New-Api-User'] = user ? String(user.id) : '-1';
  let body: BodyInit | undefined;
  if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }
  let res: Response;
  try {
    res = await fetch(withQuery(url, opts.query), { method, headers, body, credentials: 'same-origin' });
  } catch (err) {
    const text = opts.networkErrorText ?? t('错误：{message}', { message: (err as Error).message });
    notify.error(text);
    throw new ApiError(text, 0);
  }
  let envelope: Envelope<T> | null = null;
  try {
    envelope = (await res.json()) as Envelope<T>;
  } catch {
    envelope = null;
  }
  if (res.status === 401) {
    redirectToLogin();
    throw new ApiError(envelope?.message ?? 'unauthorized', 401);
  }
  if (!res.ok || envelope === null) {
    const text = httpErrorText(res.status, envelope?.message ?? res.statusText);
    notify.error(text);
    throw new ApiError(text, res.status);
  }
  if (!envelope.success && !opts.silent) notify.error(envelope.message);
  return envelope;
}

export const api = {
  get: <T = unknown>(url: string, query?: Query, opts: Omit<RequestOptions, 'query'> = {}) =>
    request<T>('GET', url, { ...opts, query }),
  post: <T = unknown>(url: string, body?: unknown, opts: RequestOptions = {}) => request<T>('POST', url, { ...opts, body }),
  put: <T = unknown>(url: string, body?: unknown, opts: RequestOptions = {}) => request<T>('PUT', url, { ...opts, body }),
  delete: <T = unknown>(url: string, opts: RequestOptions = {}) => request<T>('DELETE', url, opts),
};

/** Data of a successful envelope; throws (already shown) otherwise. */
export async function unwrap<T>(call: Promise<Envelope<T>>): Promise<T> {
  const res = await call;
  if (!res.success) throw new ApiError(res.message, 200);
  return res.data as T;
}

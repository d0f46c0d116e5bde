/**
 * The typed client of API.md and the only place in the app that calls fetch.
 * `call('POST /user/buy.do', {...})` sends the request the contract describes and returns its typed `data`.
 */
import type { CallIn, CallKey, CallOut } from '../../shared/api/calls';
import { isErrorCode } from '../../shared/api/envelope';
import { formatAsOf } from '../../shared/format';
import {
  CACHED_AT_HEADER,
  NOT_SENT_HEADER,
  TOO_OLD_HEADER,
  UNREACHABLE_HEADER,
} from '../../shared/sw-protocol';
import { currentLocale, currentTranslations } from '../i18n/locale';
import { currentPath, navigateTo } from '../navigation';
import { noteAnswerTime, setUnreachable, unreachable$ } from '../state/connection';
import { clearSession, session$ } from '../state/session';
import { showToast } from '../state/toast';
import { ApiError, type ClientErrorCode } from './errors';

/** spec §9: request timeout 50,000 ms. */
export const REQUEST_TIMEOUT_MS = 50_000;
/** spec §9: redirect delay after a missing session, 1 second. */
export const LOGIN_REDIRECT_DELAY_MS = 1000;
/** spec §8 and API.md: the messages that also mean "not logged in", in every language the station speaks. */
export const NOT_LOGGED_IN_MESSAGES: readonly string[] = [
  '请先登录',
  '請先登錄',
  '請先登入',
  'Please log in first',
  'โปรดเข้าสู่ระบบก่อน',
  'Vui lòng đăng nhập trước',
];

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * What a "not logged in" answer does: by default the spec §8 flow (toast, token removed, /login after
   * 1 s); 'ignore' for calls where being logged out is expected, such as logging out.
   */
  onNotLoggedIn?: 'redirect' | 'ignore';
}

type Method = 'GET' | 'POST';

/** The one kind of change the service worker may keep offline and send later (ARCHITECTURE "Orders and money"). */
export const QUEUEABLE_WHILE_OFFLINE: ReadonlySet<string> = new Set([
  '/user/addOption.do',
  '/user/delOption.do',
  '/user/option/sort.do',
]);

/** True when the browser says it is offline. */
function isOffline(): boolean {
  return (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine === false;
}

/** The time of an answer read from IndexedDB (the service worker's X-Cached-At), else null. */
export function storedAt(headers: Headers): number | null {
  const raw = headers.get(CACHED_AT_HEADER);
  const time = raw === null ? NaN : Date.parse(raw);
  return Number.isFinite(time) ? time : null;
}

/** 'POST /user/buy.do' → { method: 'POST', path: '/user/buy.do' }. */
export function splitCallKey(key: CallKey): { method: Method; path: string } {
  const space = key.indexOf(' ');
  return { method: key.slice(0, space) as Method, path: key.slice(space + 1) };
}

/** The call's input as form or query parameters; undefined and null fields are left out. */
export function encodeParams(input: object): URLSearchParams {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(input)) {
    if (value === undefined || value === null) continue;
    params.append(name, String(value));
  }
  return params;
}

export function isNotLoggedInAnswer(code: unknown, msg: unknown): boolean {
  return code === 'NOT_LOGGED_IN' || (typeof msg === 'string' && NOT_LOGGED_IN_MESSAGES.includes(msg.trim()));
}

function localError(code: ClientErrorCode, status = 0): ApiError {
  const LL = currentTranslations();
  return new ApiError(code, LL.errors[code](), status);
}

/**
 * Reads an answer: the envelope's `data` when `status` is 0, else an ApiError with the station's code,
 * its translated message and its field messages.
 */
export function readEnvelope<T>(httpStatus: number, body: unknown): T {
  if (typeof body !== 'object' || body === null || !('status' in body)) {
    throw localError(httpStatus >= 500 || httpStatus === 0 ? 'NETWORK' : 'INTERNAL', httpStatus);
  }
  const envelope = body as {
    status: unknown;
    code?: unknown;
    msg?: unknown;
    data?: unknown;
    fields?: unknown;
  };
  if (envelope.status === 0) return envelope.data as T;
  if (isNotLoggedInAnswer(envelope.code, envelope.msg)) {
    throw new ApiError(
      'NOT_LOGGED_IN',
      currentTranslations().errors.NOT_LOGGED_IN_TOAST(),
      httpStatus || 401,
    );
  }
  const code: ClientErrorCode = isErrorCode(envelope.code) ? envelope.code : 'INTERNAL';
  const msg =
    typeof envelope.msg === 'string' && envelope.msg !== ''
      ? envelope.msg
      : currentTranslations().errors[code]();
  const fields =
    typeof envelope.fields === 'object' && envelope.fields !== null
      ? (envelope.fields as Record<string, string>)
      : undefined;
  throw new ApiError(code, msg, httpStatus, fields);
}

let loginRedirectPending = false;

/** spec §8: toast "you are not logged in", remove the stored token, go to the login route after 1 s. */
export function handleNotLoggedIn(): void {
  showToast(currentTranslations().errors.NOT_LOGGED_IN_TOAST());
  clearSession();
  if (loginRedirectPending) return;
  loginRedirectPending = true;
  setTimeout(() => {
    loginRedirectPending = false;
    if (currentPath() !== '/login') navigateTo('/login');
  }, LOGIN_REDIRECT_DELAY_MS);
}

export async function call<K extends CallKey>(
  key: K,
  input: CallIn<K>,
  options: CallOptions = {},
): Promise<CallOut<K>> {
  const { method, path } = splitCallKey(key);
  const params = encodeParams(input);
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': currentLocale(),
  };
  const token = session$.token.peek();
  if (token) headers.Authorization = `Bearer ${token}`;

  let url = path;
  let body: URLSearchParams | undefined;
  if (method === 'GET') {
    const query = params.toString();
    if (query) url += `?${query}`;
  } else {
    headers['Content-Type'] = 'application/x-www-form-urlencoded;charset=UTF-8';
    body = params;
  }

  // A change made offline fails at once: nothing is sent, so nothing can happen twice.
  if (method !== 'GET' && isOffline() && !QUEUEABLE_WHILE_OFFLINE.has(path)) {
    throw localError('OFFLINE_NOT_SENT');
  }

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, REQUEST_TIMEOUT_MS);
  const outer = options.signal;
  const forwardAbort = () => controller.abort(outer?.reason);
  if (outer) {
    if (outer.aborted) controller.abort(outer.reason);
    else outer.addEventListener('abort', forwardAbort, { once: true });
  }

  try {
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers,
        body,
        credentials: 'include',
        signal: controller.signal,
      });
    } catch (error) {
      if (outer?.aborted) throw error;
      // A read offline that nothing stored could answer (positions, orders: network only) says so.
      throw localError(timedOut ? 'TIMEOUT' : method === 'GET' && isOffline() ? 'OFFLINE' : 'NETWORK');
    }
    if (response.headers.has(NOT_SENT_HEADER)) throw localError('OFFLINE_NOT_SENT');
    const tooOldAt = Date.parse(response.headers.get(TOO_OLD_HEADER) ?? '');
    if (Number.isFinite(tooOldAt)) {
      // No answer, and what is stored is too old to pass for current: the screen says from when, and retries.
      const time = formatAsOf(tooOldAt, Date.now(), currentLocale());
      throw new ApiError('TOO_OLD', currentTranslations().connection.tooOld({ time }), 503);
    }
    if (response.headers.has(UNREACHABLE_HEADER)) {
      // spec §8: no base URL answers; the shell replaces the page with "cannot connect".
      setUnreachable(true);
      throw localError('NETWORK');
    }
    const fromStore = storedAt(response.headers);
    // A fresh answer from the station: it is reachable again (a stored answer says nothing about that).
    if (fromStore === null && unreachable$.peek()) setUnreachable(false);
    if (method === 'GET') noteAnswerTime(key, fromStore);
    let parsed: unknown;
    try {
      parsed = await response.json();
    } catch (error) {
      if (outer?.aborted) throw error;
      if (timedOut) throw localError('TIMEOUT');
      parsed = undefined;
    }
    try {
      return readEnvelope<CallOut<K>>(response.status, parsed);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'NOT_LOGGED_IN' && options.onNotLoggedIn !== 'ignore') {
        handleNotLoggedIn();
      }
      throw error;
    }
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', forwardAbort);
  }
}

/** Any thrown value as an ApiError, for screens that show `error.message`. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return localError('NETWORK');
}

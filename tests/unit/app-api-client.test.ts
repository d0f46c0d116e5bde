import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadLocaleAsync } from '../../locales/i18n-util.async';
import {
  call,
  encodeParams,
  LOGIN_REDIRECT_DELAY_MS,
  readEnvelope,
  REQUEST_TIMEOUT_MS,
  splitCallKey,
} from '../../src/app/api/client';
import { ApiError } from '../../src/app/api/errors';
import { newRequestId } from '../../src/app/api/request-id';
import { registerNavigator } from '../../src/app/navigation';
import { toast$ } from '../../src/app/state/toast';
import { locale$ } from '../../src/app/state/locale';
import { clearSession, session$, setSession } from '../../src/app/state/session';
import type { User } from '../../src/shared/api/types';

const user: User = {
  id: 1,
  phone: '139****1234',
  realName: null,
  kycStatus: 'none',
  kycFailReason: null,
  hasBankCard: false,
  hasWithdrawPassword: false,
  inviteCode: 'ABC123',
  accounts: [],
};

interface Sent {
  url: string;
  init: RequestInit;
}

/** A fetch that records what was sent and answers with `body` (JSON) and `status`. */
function answerWith(body: unknown, status = 200) {
  const sent: Sent[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return sent;
}

const navigations: string[] = [];

beforeAll(async () => {
  await loadLocaleAsync('zh-CN');
  await loadLocaleAsync('en');
  registerNavigator(
    (to) => navigations.push(to),
    () => '/warehouse',
  );
});

beforeEach(() => {
  navigations.length = 0;
  clearSession();
  locale$.set('zh-CN');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('API client', () => {
  it('splits a call key into method and path', () => {
    expect(splitCallKey('POST /user/buy.do')).toEqual({ method: 'POST', path: '/user/buy.do' });
    expect(splitCallKey('GET /api/stock/getStock.do')).toEqual({
      method: 'GET',
      path: '/api/stock/getStock.do',
    });
  });

  it('leaves undefined and null fields out of the parameters', () => {
    expect(encodeParams({ a: 1, b: undefined, c: null, d: 'x y', e: false }).toString()).toBe(
      'a=1&d=x+y&e=false',
    );
  });

  it('sends a GET as a query string with the language header and returns the envelope’s data', async () => {
    const sent = answerWith({ status: 0, msg: '', data: { list: [], total: 0, pageNum: 1, pageSize: 30 } });
    locale$.set('en');
    const page = await call('GET /api/stock/getStock.do', { market: 'us', pageNum: 1, pageSize: 30 });
    expect(page.total).toBe(0);
    expect(sent[0]!.url).toBe('/api/stock/getStock.do?market=us&pageNum=1&pageSize=30');
    expect(sent[0]!.init.method).toBe('GET');
    expect(sent[0]!.init.credentials).toBe('include');
    const headers = sent[0]!.init.headers as Record<string, string>;
    expect(headers['Accept-Language']).toBe('en');
    expect(headers.Authorization).toBeUndefined();
  });

  it('sends a POST form-encoded with the bearer token when logged in', async () => {
    const sent = answerWith({ status: 0, msg: '', data: { id: 7 } });
    setSession('tok-123', user);
    await call('POST /user/sell.do', { positionId: 7, requestId: 'r-1' });
    const { init } = sent[0]!;
    expect(init.method).toBe('POST');
    expect(String(init.body)).toBe('positionId=7&requestId=r-1');
    const headers = init.headers as Record<string, string>;
    expect(headers['Content-Type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(headers.Authorization).toBe('Bearer tok-123');
  });

  it('throws the station’s code, translated message and field messages on a failure envelope', async () => {
    answerWith(
      { status: 400, code: 'VALIDATION', msg: 'Some input is not valid', fields: { lots: 'Too many' } },
      400,
    );
    const error = await call('POST /user/buy.do', {
      code: 'AAPL',
      lots: 500,
      leverage: 1,
      requestId: 'r',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'VALIDATION', message: 'Some input is not valid', status: 400 });
    expect((error as ApiError).fields).toEqual({ lots: 'Too many' });
  });

  it('on NOT_LOGGED_IN shows the toast, removes the token and goes to /login after 1 s', async () => {
    vi.useFakeTimers();
    setSession('stale', user);
    answerWith({ status: 401, code: 'NOT_LOGGED_IN', msg: '请先登录' }, 401);
    const error = await call('GET /user/getUserInfo.do', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NOT_LOGGED_IN', message: '您还未登录，请先登录' });
    expect(session$.token.peek()).toBeNull();
    expect(toast$.peek()).toMatchObject({ visible: true, text: '您还未登录，请先登录' });
    expect(navigations).toEqual([]);
    vi.advanceTimersByTime(LOGIN_REDIRECT_DELAY_MS);
    expect(navigations).toEqual(['/login']);
  });

  it('treats the traditional-Chinese "please log in first" message as not logged in, whatever the code', async () => {
    vi.useFakeTimers();
    setSession('stale', user);
    answerWith({ status: 401, code: 'SOMETHING_ELSE', msg: '請先登錄' }, 401);
    const error = await call('GET /user/getUserInfo.do', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NOT_LOGGED_IN' });
    expect(session$.token.peek()).toBeNull();
    vi.advanceTimersByTime(LOGIN_REDIRECT_DELAY_MS);
    expect(navigations).toEqual(['/login']);
  });

  it('recognises "please log in first" in Thai, Vietnamese and Taiwanese wording as not logged in', async () => {
    vi.useFakeTimers();
    for (const msg of ['โปรดเข้าสู่ระบบก่อน', 'Vui lòng đăng nhập trước', '請先登入']) {
      setSession('stale', user);
      answerWith({ status: 401, code: 'SOMETHING_ELSE', msg }, 401);
      await expect(call('GET /user/getUserInfo.do', {})).rejects.toMatchObject({ code: 'NOT_LOGGED_IN' });
      expect(session$.token.peek(), msg).toBeNull();
    }
    vi.advanceTimersByTime(LOGIN_REDIRECT_DELAY_MS);
    expect(navigations).toEqual(['/login']);
  });

  it('does not redirect when the caller expects to be logged out', async () => {
    vi.useFakeTimers();
    answerWith({ status: 401, code: 'NOT_LOGGED_IN', msg: 'Please log in first' }, 401);
    await expect(call('POST /api/user/logout.do', {}, { onNotLoggedIn: 'ignore' })).rejects.toBeInstanceOf(
      ApiError,
    );
    vi.advanceTimersByTime(LOGIN_REDIRECT_DELAY_MS * 2);
    expect(navigations).toEqual([]);
  });

  it('passes a network failure on as NETWORK, translated locally', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    locale$.set('en');
    await expect(call('GET /api/index/ping.do', {})).rejects.toMatchObject({
      code: 'NETWORK',
      message: 'Cannot connect to the server, please check your network and retry',
      status: 0,
    });
  });

  it('gives up after 50 s with TIMEOUT', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise<Response>((_resolve, reject) => {
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          }),
      ),
    );
    const pending = call('GET /api/index/ping.do', {}).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    expect(await pending).toMatchObject({ code: 'TIMEOUT', message: '请求超时，请检查网络后重试' });
  });

  it('rethrows the caller’s own abort instead of reporting a network error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise<Response>((_resolve, reject) => {
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          }),
      ),
    );
    const controller = new AbortController();
    const pending = call('GET /api/index/ping.do', {}, { signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    controller.abort();
    const error = await pending;
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
  });

  it('reads a non-envelope answer (a proxy’s error page) as a network failure', () => {
    expect(() => readEnvelope(502, undefined)).toThrow(ApiError);
    try {
      readEnvelope(502, '<html>');
    } catch (error) {
      expect((error as ApiError).code).toBe('NETWORK');
    }
  });

  it('makes a fresh version-4 UUID for every money call', () => {
    const a = newRequestId();
    const b = newRequestId();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a).not.toBe(b);
  });
});

/**
 * Cross-site request forgery (README "Security"): a state-changing call authenticated by the session cookie
 * must come from the station's own origin or one of CORS_ORIGINS; the Authorization header is not affected.
 */
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Account, User } from '../../src/shared/api/types';
import {
  api,
  data,
  dbTargets,
  newRequestId,
  register,
  startStation,
  type Registered,
} from './helpers/station';

const EVIL = 'http://evil.example';
const FRIEND = 'https://app.friend.example';

const mainBalance = async (user: Registered) =>
  data(await user.client.get<User>('/user/getUserInfo.do')).accounts.find((a: Account) => a.type === 'main')!
    .balance;

describe('cross-site requests with the session cookie', () => {
  it('refuses a foreign origin, accepts the own origin, CORS_ORIGINS and the Authorization header', async () => {
    const station = await startStation({ db: 'sqlite', env: { CORS_ORIGINS: FRIEND } });
    try {
      const user = await register(api(station.url));
      const cookie = { cookie: `USER_TOKEN=${user.token}` };
      const byCookie = (headers: Record<string, string>) => api(station.url, null, { ...cookie, ...headers });
      const transfer = (client: ReturnType<typeof api>) =>
        client.post('/user/transAmt.do', {
          amount: 100,
          from: 'main',
          to: 'index',
          requestId: newRequestId(),
        });
      const before = await mainBalance(user);

      // A form POST from another site, as a browser sends it: Origin and Sec-Fetch-Site say where from.
      const foreign: Record<string, string>[] = [
        { origin: EVIL, 'sec-fetch-site': 'cross-site' },
        { origin: EVIL },
        { 'sec-fetch-site': 'same-site' },
        { 'sec-fetch-site': 'cross-site' },
        { origin: 'null' },
      ];
      for (const headers of foreign) {
        const res = await transfer(byCookie(headers).withLang('en'));
        expect(res.http, JSON.stringify(headers)).toBe(403);
        expect(res.body).toMatchObject({
          code: 'CROSS_SITE',
          msg: expect.stringContaining('another website'),
        });
      }
      expect(await mainBalance(user)).toBe(before);
      // Buying is refused the same way.
      const buy = await byCookie({ origin: EVIL }).post('/user/buy.do', {
        code: 'AAPL',
        lots: 1,
        leverage: 1,
        requestId: newRequestId(),
      });
      expect(buy.body).toMatchObject({ code: 'CROSS_SITE' });

      // The station's own page, an allowed origin, a request from no page, and the header are accepted.
      expect((await transfer(byCookie({ origin: station.url, 'sec-fetch-site': 'same-origin' }))).http).toBe(
        200,
      );
      expect((await transfer(byCookie({ 'sec-fetch-site': 'same-origin' }))).http).toBe(200);
      expect((await transfer(byCookie({ origin: FRIEND, 'sec-fetch-site': 'cross-site' }))).http).toBe(200);
      expect((await transfer(byCookie({}))).http).toBe(200);
      expect((await transfer(user.client.withHeaders({ origin: EVIL }))).http).toBe(200);
      expect(await mainBalance(user)).toBeCloseTo(before - 500, 2);
      // Reading is not state-changing: a GET with the cookie from anywhere still answers.
      expect((await byCookie({ origin: EVIL }).get('/user/getUserInfo.do')).http).toBe(200);
    } finally {
      await station.close();
    }
  });
});

/**
 * POST calls that act on no session: they open one (registration, login) or work on a phone number and an
 * SMS code. Any other POST must declare the session in its OpenAPI `security`, so a new call is walked below.
 */
const SESSIONLESS_POSTS = new Set([
  '/api/sms/sendRegSms.do',
  '/api/sms/sendForgetSms.do',
  '/code/checkCode.do',
  '/api/user/reg.do',
  '/api/user/login.do',
  '/api/user/updatePwd.do',
]);

interface DocOperation {
  security?: Record<string, string[]>[];
}

describe.each(dbTargets)('every state-changing call the cookie authenticates (%s)', (db) => {
  it('refuses each from a foreign origin with the cookie alone, logout included', async () => {
    const station = await startStation({ db });
    try {
      const user = await register(api(station.url));
      const doc = (await (await api(station.url).raw('/docs/json')).json()) as {
        paths: Record<string, Record<string, DocOperation>>;
      };
      const cookieCalls = Object.entries(doc.paths).flatMap(([p, methods]) =>
        Object.entries(methods)
          .filter(([m, op]) => m === 'post' && op.security?.some((s) => 'cookieAuth' in s))
          .map(() => p),
      );
      // Every POST the station registers is either walked here or known to act on no session.
      const posts = station.app.registeredRoutes.filter((r) => r.method === 'POST').map((r) => r.url);
      expect(posts.filter((p) => !cookieCalls.includes(p) && !SESSIONLESS_POSTS.has(p))).toEqual([]);
      expect(cookieCalls).toContain('/api/user/logout.do');
      expect(cookieCalls.length).toBeGreaterThan(30);

      const before = await station.counts();
      const foreign = { cookie: `USER_TOKEN=${user.token}`, origin: EVIL, 'sec-fetch-site': 'cross-site' };
      for (const p of cookieCalls) {
        const res = await api(station.url, null, foreign).post(p, {});
        expect({ call: p, http: res.http, code: (res.body as { code?: string }).code }).toEqual({
          call: p,
          http: 403,
          code: 'CROSS_SITE',
        });
      }
      // Nothing was written and the session lives on.
      expect(await station.counts()).toEqual(before);
      expect((await user.client.get('/user/getUserInfo.do')).http).toBe(200);

      // The station's own page logs out with the cookie alone.
      const own = api(station.url, null, {
        cookie: `USER_TOKEN=${user.token}`,
        origin: station.url,
        'sec-fetch-site': 'same-origin',
      });
      expect((await own.post('/api/user/logout.do')).http).toBe(200);
      expect((await user.client.get('/user/getUserInfo.do')).body).toMatchObject({ code: 'NOT_LOGGED_IN' });
    } finally {
      await station.close();
    }
  });
});

/** A POST with headers fetch() may not set (Host), as nginx sends it on to the station. */
function postAsProxied(
  url: string,
  p: string,
  headers: Record<string, string>,
  form: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      new URL(p, url),
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(form);
  });
}

describe('behind a proxy (README "Scaling out")', () => {
  it('takes the own origin from Host and X-Forwarded-Proto, trusting the latter only with TRUST_PROXY', async () => {
    for (const trusted of [true, false]) {
      const station = await startStation({ db: 'sqlite', env: { TRUST_PROXY: String(trusted) } });
      try {
        const user = await register(api(station.url));
        // What the README's nginx example sends on for the app's own page at https://desk.example.
        const proxied = {
          host: 'desk.example',
          'x-forwarded-host': 'desk.example',
          'x-forwarded-proto': 'https',
          'x-forwarded-for': '203.0.113.9',
          origin: 'https://desk.example',
          'sec-fetch-site': 'same-origin',
          cookie: `USER_TOKEN=${user.token}`,
        };
        const form = new URLSearchParams({
          amount: '100',
          from: 'main',
          to: 'index',
          requestId: newRequestId(),
        });
        const status = await postAsProxied(station.url, '/user/transAmt.do', proxied, form.toString());
        // Untrusted, the forwarded scheme is ignored: the page's https origin is not the station's http one.
        expect(status, `TRUST_PROXY=${trusted}`).toBe(trusted ? 200 : 403);
      } finally {
        await station.close();
      }
    }
  });
});

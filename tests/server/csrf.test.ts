/**
 * Cross-site request forgery (README "Security"): a state-changing call authenticated by the session cookie
 * must come from the station's own origin or one of CORS_ORIGINS; the Authorization header is not affected.
 */
import { describe, expect, it } from 'vitest';
import type { Account, User } from '../../src/shared/api/types';
import { api, data, newRequestId, register, startStation, type Registered } from './helpers/station';

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

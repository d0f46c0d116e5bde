/**
 * Sessions remembered in memory (server/platform/session-cache.ts) must end as soon as the database
 * says so: logout, password change and reset refuse a token at once even right after it was used, expiry
 * follows the station's clock, and where other processes may end sessions (PostgreSQL, REDIS_URL) nothing
 * is remembered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResult, User } from '../../src/shared/api/types';
import type { FixedClock } from '../../server/market/clock';
import { SessionCache, sessionCacheOf } from '../../server/platform/session-cache';
import type { Station } from '../../server/platform/station';
import { hashToken } from '../../server/identity/credentials';
import {
  api,
  data,
  dbTargets,
  failure,
  register,
  startStation,
  type ApiClient,
  type TestStation,
} from './helpers/station';

describe('SessionCache', () => {
  const session = { sessionId: 1, userId: 7, expiresAt: 1_000 };

  it('trusts a remembered session for less than its time to live, then reads the row again', () => {
    let now = 0;
    const cache = new SessionCache(10_000, () => now);
    cache.remember('h', session, cache.generation());
    now = 9_999;
    expect(cache.get('h')).toMatchObject(session);
    now = 10_000;
    expect(cache.get('h')).toBeUndefined();
  });

  it('does not remember a session read while a session was being ended', () => {
    const cache = new SessionCache();
    const generation = cache.generation();
    // The row was read before the logout's update; the answer arrives after it.
    cache.forgetToken('h');
    cache.remember('h', session, generation);
    expect(cache.get('h')).toBeUndefined();
    const later = cache.generation();
    cache.forgetUser(99);
    cache.remember('h', session, later);
    expect(cache.get('h')).toBeUndefined();
  });

  it('forgets every session of a user and only theirs', () => {
    const cache = new SessionCache();
    cache.remember('a', session, cache.generation());
    cache.remember('b', { ...session, sessionId: 2 }, cache.generation());
    cache.remember('c', { sessionId: 3, userId: 8, expiresAt: 1_000 }, cache.generation());
    cache.forgetUser(7);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')).toMatchObject({ sessionId: 3 });
  });

  it('is off where other processes may end sessions: PostgreSQL or REDIS_URL', () => {
    const station = (dialect: 'sqlite' | 'postgres', redisUrl: string | null) =>
      ({ db: {}, dialect, config: { redisUrl } }) as unknown as Station;
    expect(sessionCacheOf(station('sqlite', null))).toBeInstanceOf(SessionCache);
    expect(sessionCacheOf(station('sqlite', 'redis://127.0.0.1:6379'))).toBeNull();
    expect(sessionCacheOf(station('postgres', null))).toBeNull();
  });
});

describe.each(dbTargets)('sessions end at once (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  const login = async (phone: string, password: string) =>
    data(await client.post<AuthResult>('/api/user/login.do', { phone, password })).token;
  const refused = async (token: string) =>
    failure(await client.withToken(token).get('/user/getUserInfo.do')).code;

  it('refuses a logged-out token at once, right after using it, and keeps the user’s other session', async () => {
    const me = await register(client);
    const other = await login(me.phone, me.password);
    data(await me.client.get<User>('/user/getUserInfo.do'));
    data(await client.withToken(other).get<User>('/user/getUserInfo.do'));
    data(await me.client.post('/api/user/logout.do'));
    expect(await refused(me.token)).toBe('NOT_LOGGED_IN');
    const buy = await me.client.post('/user/buy.do', {
      code: 'AAPL',
      lots: 1,
      leverage: 1,
      requestId: 'cache-1',
    });
    expect(failure(buy).code).toBe('NOT_LOGGED_IN');
    expect(data(await client.withToken(other).get<User>('/user/getUserInfo.do')).id).toBe(me.user.id);
  });

  it('ends the other sessions at once on a password change, even ones just used', async () => {
    const me = await register(client);
    const other = await login(me.phone, me.password);
    data(await client.withToken(other).get<User>('/user/getUserInfo.do'));
    data(await me.client.post('/user/updatePwd.do', { oldPassword: me.password, password: 'next12' }));
    expect(await refused(other)).toBe('NOT_LOGGED_IN');
    data(await me.client.get<User>('/user/getUserInfo.do'));
  });

  it('ends every session at once on a password reset, even ones just used', async () => {
    const me = await register(client);
    data(await me.client.get<User>('/user/getUserInfo.do'));
    const sms = data(
      await client.post<{ demoCode: string }>('/api/sms/sendForgetSms.do', { phone: me.phone }),
    );
    data(
      await client.post('/api/user/updatePwd.do', {
        phone: me.phone,
        code: sms.demoCode,
        password: 'reset1',
      }),
    );
    expect(await refused(me.token)).toBe('NOT_LOGGED_IN');
  });

  it('refuses a session past its expiry on the station clock, though it was just used', async () => {
    const me = await register(client);
    data(await me.client.get<User>('/user/getUserInfo.do'));
    station.clock.advance(station.config.settings.sessionTtlDays * 86_400_000);
    try {
      expect(await refused(me.token)).toBe('NOT_LOGGED_IN');
    } finally {
      station.clock.advance(-station.config.settings.sessionTtlDays * 86_400_000);
    }
  });

  it.runIf(db === 'postgres')(
    'reads the row on every call in scale-out mode: a session ended by another process is refused at once',
    async () => {
      const me = await register(client);
      data(await me.client.get<User>('/user/getUserInfo.do'));
      // Another station process on the same database logs the session out.
      await station.app.db
        .updateTable('sessions')
        .set({ revoked_at: station.clock.now() })
        .where('token_hash', '=', hashToken(me.token))
        .execute();
      expect(await refused(me.token)).toBe('NOT_LOGGED_IN');
    },
  );
});

/**
 * The phone check's two counts (its address's and the phone's, server/identity/address-limits.ts) in
 * scale-out mode's Redis rate limiter (REDIS_URL): taken together or not at all, so a check refused by one
 * count spends nothing of the other, and counted in Redis, not in the database. Runs wherever Redis
 * (PAPERDESK_TEST_REDIS_URL, default redis://127.0.0.1:6379) answers; says so when skipped; with CI=true a
 * missing Redis fails the file instead.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixedClock } from '../../server/market/clock';
import { redisNamespace } from '../../server/platform/redis';
import {
  api,
  data,
  dbTargets,
  failure,
  startStation,
  type ApiClient,
  type TestStation,
} from './helpers/station';

const REDIS_URL = process.env.PAPERDESK_TEST_REDIS_URL?.trim() || 'redis://127.0.0.1:6379';
const HOUR = 3_600_000;

/** Why the suite cannot run here, or null when Redis answers. */
async function unavailable(): Promise<string | null> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 3000 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (error) {
    return `Redis does not answer at ${REDIS_URL} (${error instanceof Error ? error.message : error})`;
  } finally {
    redis.disconnect();
  }
}

const missing = await unavailable();
if (missing && process.env.CI !== 'true') {
  console.warn(`Redis rate-limit suite SKIPPED: ${missing}. Start Redis to run it.`);
}

/** A client that the station (TRUST_PROXY=true) sees as calling from `ip`. */
const from = (client: ApiClient, ip: string) => client.withHeaders({ 'x-forwarded-for': ip });

describe.skipIf(missing !== null && process.env.CI !== 'true').each(dbTargets)(
  'phone checks counted in Redis (%s)',
  (db) => {
    let station: TestStation<FixedClock>;
    let redis: Redis;
    let namespace: string;

    beforeAll(async () => {
      station = await startStation({
        db,
        env: {
          REDIS_URL,
          TRUST_PROXY: 'true',
          CHECK_PHONE_PER_IP_HOURLY: '3',
          CHECK_PHONE_PER_PHONE_HOURLY: '4',
        },
      });
      redis = new Redis(REDIS_URL);
      namespace = redisNamespace(station.config);
    });
    afterAll(async () => {
      if (redis) {
        const keys = await redis.keys(`${namespace}*`);
        if (keys.length > 0) await redis.del(...keys);
        await redis.quit();
      }
      await station?.close();
    });

    it('takes the address count and the phone count together or not at all', async () => {
      const check = (ip: string, phone: string) =>
        from(api(station.url), ip).withLang('en').get('/api/user/checkPhone.do', { phone });
      const phone = '13800000000';
      const other = '13800000001';
      const refusedFor = async (reason: RegExp, ip: string, p: string) => {
        const res = await check(ip, p);
        expect(res.http).toBe(429);
        expect(failure(res)).toMatchObject({ code: 'RATE_LIMITED', msg: expect.stringMatching(reason) });
      };
      const network = /network/;
      const tooOften = /checked too often/;

      // The first address uses its three checks on the phone; a fourth is refused for the address, and
      // does not count for the phone: it may still be checked once more, from another address.
      for (let i = 0; i < 3; i++) data(await check('203.0.113.1', phone));
      await refusedFor(network, '203.0.113.1', phone);
      data(await check('203.0.113.2', phone));
      // The phone's four checks are used: refused for the phone, and not counted for the address, which
      // keeps its two other checks for another phone.
      for (let i = 0; i < 3; i++) await refusedFor(tooOften, '203.0.113.2', phone);
      data(await check('203.0.113.2', other));
      data(await check('203.0.113.2', other));
      await refusedFor(network, '203.0.113.2', other);

      // Counted in Redis (what was taken, nothing of the refused calls), not in the database's counters.
      const period = Math.floor(station.clock.now() / HOUR);
      const count = (key: string) => redis.get(`${namespace}rl:count:check-phone:${key}:${period}`);
      expect(await count(`phone:${phone}`)).toBe('4');
      expect(await count(`phone:${other}`)).toBe('2');
      expect(await count('ip:203.0.113.1')).toBe('3');
      expect(await count('ip:203.0.113.2')).toBe('3');
      const stored = await station.app.db
        .selectFrom('rate_counters')
        .select('key')
        .where('key', 'like', 'check-phone:%')
        .execute();
      expect(stored).toEqual([]);

      // The next hour counts afresh.
      station.clock.advance(HOUR);
      data(await check('203.0.113.1', phone));
    });
  },
);

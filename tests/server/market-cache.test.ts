import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DayBars, Page, Quote } from '../../src/shared/api/types';
import type { FixedClock } from '../../server/market/clock';
import { T0, api, data, dbTargets, type ApiClient, type TestStation } from './helpers/station';
import { startStation } from './helpers/station';

describe.each(dbTargets)('cached market answers (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  const raw = async (path: string, encoding: string) => {
    const res = await fetch(`${station.url}${path}`, { headers: { 'accept-encoding': encoding } });
    return {
      encoding: res.headers.get('content-encoding'),
      vary: res.headers.get('vary'),
      body: await res.text(),
    };
  };

  it('answers the same bars compressed with br, with gzip and uncompressed', async () => {
    const path = '/api/stock/getDayK.do?code=600519&limit=750';
    const br = await raw(path, 'gzip, deflate, br');
    const gzip = await raw(path, 'gzip');
    const plain = await raw(path, 'identity');
    expect(br.encoding).toBe('br');
    expect(gzip.encoding).toBe('gzip');
    expect(plain.encoding).toBeNull();
    expect(br.vary).toContain('accept-encoding');
    expect(JSON.parse(gzip.body)).toEqual(JSON.parse(br.body));
    expect(JSON.parse(plain.body)).toEqual(JSON.parse(br.body));
    expect((JSON.parse(br.body) as { data: DayBars }).data.bars).toHaveLength(750);
    const refused = await raw(path, 'br;q=0, gzip');
    expect(refused.encoding).toBe('gzip');
  });

  it('moves the bars with the clock and keeps them within the same minute', async () => {
    const get = async () =>
      data(await client.get<DayBars>('/api/stock/getDayK.do', { code: '600519', limit: 5 })).bars;
    try {
      const first = await get();
      station.clock.advance(20_000);
      expect(await get()).toEqual(first);
      station.clock.advance(40 * 60_000);
      const later = await get();
      expect(later.slice(0, 4)).toEqual(first.slice(0, 4));
      expect(later[4]).not.toEqual(first[4]);
      expect(later[4]![5]).toBeGreaterThan(first[4]![5]); // more volume traded
      // Another limit or adjustment is another answer, not the cached one.
      const two = data(await client.get<DayBars>('/api/stock/getDayK.do', { code: '600519', limit: 2 })).bars;
      expect(two).toEqual(later.slice(3));
    } finally {
      station.clock.set(T0);
    }
  });

  it('recomputes a quote page in the next second, and pages of other queries separately', async () => {
    const page = async (query: Record<string, string | number>) =>
      data(await client.get<Page<Quote>>('/api/stock/getStock.do', { market: 'a', pageSize: 20, ...query }));
    try {
      const first = await page({ sort: '-changePct' });
      expect(await page({ sort: '-changePct' })).toEqual(first);
      const ascending = await page({ sort: 'changePct' });
      expect(ascending.list[0]!.changePct).toBeLessThanOrEqual(first.list[19]!.changePct);
      station.clock.advance(5 * 60_000);
      const later = await page({ sort: '-changePct' });
      expect(later.list.map((q) => q.time)).not.toEqual(first.list.map((q) => q.time));
      const sorted = data(
        await client.get<Page<Quote>>('/api/stock/getStockSort.do', { market: 'a', pageSize: 20 }),
      );
      expect(sorted.list.map((q) => q.code)).toEqual(later.list.map((q) => q.code));
    } finally {
      station.clock.set(T0);
    }
  });
});

import { describe, expect, it } from 'vitest';
import type { MinuteBars, StockDetail } from '../../src/shared/api/types';
import { FixedClock } from '../../server/market/clock';
import { api, data, dbTargets, failure, newRequestId, register, startStation } from './helpers/station';

const utc = (y: number, mo: number, d: number, h: number, mi = 0, s = 0) => Date.UTC(y, mo - 1, d, h, mi, s);

describe.each(dbTargets)('market calendars over HTTP with CLOCK_MODE=real (%s)', (db) => {
  it('keeps A-shares closed through the National Day week and opens them at 09:30 on the 9th', async () => {
    // Wednesday 8 October 2025, 10:00 in Shanghai: a holiday.
    const clock = new FixedClock(utc(2025, 10, 8, 2));
    const station = await startStation({ db, clock, env: { CLOCK_MODE: 'real' } });
    try {
      const client = api(station.url);
      const stock = async () =>
        data(await client.get<StockDetail>('/api/stock/getSingleStock.do', { code: '600519' }));
      const holiday = await stock();
      expect(holiday.status).toBe('closed');
      // The quote is the close of Tuesday 30 September, 15:00 Shanghai.
      expect(holiday.time).toBe(utc(2025, 9, 30, 7));
      const user = await register(client);
      const refused = await user.client.post('/user/buy.do', {
        code: '600519',
        lots: 1,
        leverage: 1,
        requestId: newRequestId(),
      });
      expect(failure(refused)).toMatchObject({ status: 409, code: 'OUTSIDE_TRADING_HOURS' });
      clock.set(utc(2025, 10, 9, 1, 29, 59));
      expect((await stock()).status).toBe('closed');
      clock.set(utc(2025, 10, 9, 1, 30));
      const open = await stock();
      expect(open.status).toBe('trading');
      expect(open.prevClose).toBe(holiday.price);
      await station.assertLedger();
    } finally {
      await station.close();
    }
  });

  it("serves Hong Kong's Christmas Eve as a morning-only day", async () => {
    // Wednesday 24 December 2025, 12:30 in Hong Kong: the half day has ended.
    const clock = new FixedClock(utc(2025, 12, 24, 4, 30));
    const station = await startStation({ db, clock, env: { CLOCK_MODE: 'real' } });
    try {
      const client = api(station.url);
      const tencent = data(await client.get<StockDetail>('/api/stock/getSingleStock.do', { code: '00700' }));
      expect(tencent.status).toBe('closed');
      expect(tencent.time).toBe(utc(2025, 12, 24, 4));
      // Five trading days of minutes: 18-23 December (330 minutes each), then the half day's 150.
      const all = data(
        await client.get<MinuteBars>('/api/stock/getMinK_Echarts.do', { code: '00700', period: '1' }),
      );
      expect(all.bars).toHaveLength(4 * 330 + 150);
      expect(all.bars[0]![0]).toBe(utc(2025, 12, 18, 1, 30));
      const dayOf = (b: readonly number[]) => Math.floor((b[0]! + 8 * 3_600_000) / 86_400_000);
      expect(new Set(all.bars.map(dayOf)).size).toBe(5);
      const minutes = { bars: all.bars.filter((b) => b[0] >= utc(2025, 12, 24, 0)) };
      expect(minutes.bars).toHaveLength(150);
      expect(minutes.bars[0]![0]).toBe(utc(2025, 12, 24, 1, 30));
      expect(minutes.bars.at(-1)![0]).toBe(utc(2025, 12, 24, 3, 59));
      // The last bar closes at the day's price.
      expect(minutes.bars.at(-1)![4]).toBe(tencent.price);
      const allHours = data(
        await client.get<MinuteBars>('/api/stock/getMinK_Echarts.do', { code: '00700', period: '60' }),
      );
      const hourly = { bars: allHours.bars.filter((b) => b[0] >= utc(2025, 12, 24, 0)) };
      expect(hourly.bars.map((b) => b[0])).toEqual([
        utc(2025, 12, 24, 1, 30),
        utc(2025, 12, 24, 2, 30),
        utc(2025, 12, 24, 3, 30),
      ]);
      expect(hourly.bars.reduce((sum, b) => sum + b[5], 0)).toBe(tencent.volume);
    } finally {
      await station.close();
    }
  });
});

/** The watchlist calls of spec §7 "Watchlist" over HTTP (addOption, delOption, isOption, option/list). */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Quote } from '../../src/shared/api/types';
import { FixedClock } from '../../server/market/clock';
import {
  T0,
  api,
  data,
  dbTargets,
  failure,
  register,
  startStation,
  type ApiClient,
  type Registered,
  type TestStation,
} from './helpers/station';

describe.each(dbTargets)('watchlist (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());
  afterEach(async () => {
    await station.assertLedger();
    station.clock.set(T0);
    station.config.settings.watchlistMax = 200;
  });

  const list = async (user: Registered) => data(await user.client.get<Quote[]>('/user/option/list.do'));
  const watched = async (user: Registered, code: string) =>
    data(await user.client.get<{ watched: boolean }>('/user/isOption.do', { code })).watched;

  it('adds stocks and futures, newest first, as live quotes; adding twice changes nothing', async () => {
    const user = await register(client);
    expect(await list(user)).toEqual([]);
    for (const code of ['600519', 'aapl', '00700', 'AU0']) {
      expect(data(await user.client.post<null>('/user/addOption.do', { code }))).toBeNull();
    }
    const quotes = await list(user);
    expect(quotes.map((q) => [q.code, q.market])).toEqual([
      ['AU0', 'futures'],
      ['00700', 'hk'],
      ['AAPL', 'us'],
      ['600519', 'a'],
    ]);
    const aapl = data(await client.get<Quote>('/api/stock/getSingleStock.do', { code: 'AAPL' }));
    expect(quotes[2]!.price).toBe(aapl.price);
    // Again: harmless, and AAPL keeps its place.
    data(await user.client.post('/user/addOption.do', { code: 'AAPL' }));
    expect((await list(user)).map((q) => q.code)).toEqual(['AU0', '00700', 'AAPL', '600519']);
    expect(await watched(user, 'aapl')).toBe(true);
    expect(await watched(user, 'MSFT')).toBe(false);
    // Prices move with the clock.
    station.clock.advance(3_600_000);
    const later = await list(user);
    expect(later[2]!.price).toBe(
      data(await client.get<Quote>('/api/stock/getSingleStock.do', { code: 'AAPL' })).price,
    );
    // Each user has their own list.
    const other = await register(client);
    expect(await list(other)).toEqual([]);
    expect(await watched(other, 'AAPL')).toBe(false);
  });

  it('removes a code, harmlessly when it is not there', async () => {
    const user = await register(client);
    for (const code of ['MSFT', 'NVDA']) data(await user.client.post('/user/addOption.do', { code }));
    expect(data(await user.client.post('/user/delOption.do', { code: 'msft' }))).toBeNull();
    expect((await list(user)).map((q) => q.code)).toEqual(['NVDA']);
    expect(await watched(user, 'MSFT')).toBe(false);
    expect(data(await user.client.post('/user/delOption.do', { code: 'MSFT' }))).toBeNull();
    expect(failure(await user.client.post('/user/delOption.do', { code: 'ZZZZ9' }))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    // Re-adding puts it first.
    data(await user.client.post('/user/addOption.do', { code: 'MSFT' }));
    expect((await list(user)).map((q) => q.code)).toEqual(['MSFT', 'NVDA']);
  });

  it('refuses an index (INDEX_NOT_WATCHABLE) in every language, and unknown or bad codes', async () => {
    const user = await register(client);
    const zh = await user.client.post('/user/addOption.do', { code: 'SH000001' });
    expect(zh.http).toBe(400);
    expect(failure(zh)).toEqual({ status: 400, code: 'INDEX_NOT_WATCHABLE', msg: '指数不能加入自选' });
    const messages: Record<string, string> = {
      en: 'An index cannot be added to the watchlist',
      'zh-TW': '指數不能加入自選',
    };
    for (const [lang, msg] of Object.entries(messages)) {
      expect(failure(await user.client.withLang(lang).post('/user/addOption.do', { code: 'hsi' })).msg).toBe(
        msg,
      );
    }
    for (const lang of ['th', 'vi']) {
      const res = failure(await user.client.withLang(lang).post('/user/addOption.do', { code: 'SPX' }));
      expect(res.code).toBe('INDEX_NOT_WATCHABLE');
      expect(res.msg).not.toBe(messages.en);
    }
    expect(await watched(user, 'SH000001')).toBe(false);
    expect(failure(await user.client.post('/user/addOption.do', { code: 'NOPE9' }))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect(failure(await user.client.get('/user/isOption.do', { code: 'NOPE9' })).code).toBe('NOT_FOUND');
    for (const code of ['', '<script>', "1' OR '1'='1", 'A'.repeat(40)]) {
      expect(failure(await user.client.post('/user/addOption.do', { code }))).toMatchObject({
        status: 400,
        code: 'VALIDATION',
      });
    }
    expect(failure(await user.client.post('/user/addOption.do', {})).fields).toEqual({
      code: '此项为必填项',
    });
    expect(await list(user)).toEqual([]);
  });

  it('caps the list with a clear message', async () => {
    station.config.settings.watchlistMax = 3;
    const user = await register(client);
    for (const code of ['AAPL', 'MSFT', 'NVDA']) data(await user.client.post('/user/addOption.do', { code }));
    const full = await user.client.post('/user/addOption.do', { code: 'TSLA' });
    expect(failure(full)).toEqual({
      status: 400,
      code: 'ABOVE_MAXIMUM',
      msg: '自选最多3个，请先删除部分自选',
    });
    expect(failure(await user.client.withLang('en').post('/user/addOption.do', { code: 'TSLA' })).msg).toBe(
      'The watchlist holds at most 3 items, please remove some first',
    );
    // A code already on the full list is still harmless to add.
    data(await user.client.post('/user/addOption.do', { code: 'AAPL' }));
    data(await user.client.post('/user/delOption.do', { code: 'AAPL' }));
    data(await user.client.post('/user/addOption.do', { code: 'TSLA' }));
    expect((await list(user)).map((q) => q.code)).toEqual(['TSLA', 'NVDA', 'MSFT']);
  });

  it('reorders the list as the user arranged it; what changed meanwhile is neither lost nor brought back', async () => {
    const user = await register(client);
    for (const code of ['600519', 'AAPL', '00700', 'AU0']) {
      data(await user.client.post('/user/addOption.do', { code }));
    }
    const codes = async () => (await list(user)).map((q) => q.code);
    expect(await codes()).toEqual(['AU0', '00700', 'AAPL', '600519']);
    expect(
      data(await user.client.post<null>('/user/option/sort.do', { codes: '600519,au0,AAPL,00700' })),
    ).toBeNull();
    expect(await codes()).toEqual(['600519', 'AU0', 'AAPL', '00700']);
    // Another device added MSFT and removed AAPL before this reorder arrived: MSFT stays on top, AAPL stays out.
    data(await user.client.post('/user/addOption.do', { code: 'MSFT' }));
    data(await user.client.post('/user/delOption.do', { code: 'AAPL' }));
    data(await user.client.post('/user/option/sort.do', { codes: 'AAPL,00700,AU0,600519' }));
    expect(await codes()).toEqual(['MSFT', '00700', 'AU0', '600519']);
    // A new add still goes on top.
    data(await user.client.post('/user/addOption.do', { code: 'IF0' }));
    expect((await codes())[0]).toBe('IF0');
    // A code twice, or a list that is not codes, is refused in the user's language and changes nothing.
    const twice = failure(
      await user.client.withLang('en').post('/user/option/sort.do', { codes: 'AU0,au0' }),
    );
    expect(twice).toMatchObject({ code: 'VALIDATION' });
    expect(twice.fields).toHaveProperty('codes');
    for (const bad of ['', 'AU0,,MSFT', 'AU0;MSFT', 'x'.repeat(3000)]) {
      const res = await user.client.post('/user/option/sort.do', { codes: bad });
      expect(res.http, bad.slice(0, 20)).toBe(400);
      expect(failure(res).code).toBe('VALIDATION');
    }
    expect(await codes()).toEqual(['IF0', 'MSFT', '00700', 'AU0', '600519']);
  });

  it('needs a session for every watchlist call', async () => {
    for (const res of [
      await client.post('/user/addOption.do', { code: 'AAPL' }),
      await client.post('/user/delOption.do', { code: 'AAPL' }),
      await client.get('/user/isOption.do', { code: 'AAPL' }),
      await client.get('/user/option/list.do'),
      await client.post('/user/option/sort.do', { codes: 'AAPL' }),
    ]) {
      expect(res.http).toBe(401);
      expect(failure(res).code).toBe('NOT_LOGGED_IN');
    }
  });
});

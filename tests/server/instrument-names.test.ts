/** Instrument names in every language over HTTP (API.md: answers speak the request's Accept-Language). */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Position, Quote, UserMessagePage } from '../../src/shared/api/types';
import type { FixedClock } from '../../server/market/clock';
import {
  T0,
  api,
  data,
  dbTargets,
  newRequestId,
  register,
  startStation,
  type ApiClient,
  type TestStation,
} from './helpers/station';

const MOUTAI = {
  'zh-CN': '贵州茅台',
  'zh-TW': '貴州茅台',
  en: 'Kweichow Moutai',
  th: 'Kweichow Moutai',
  vi: 'Kweichow Moutai',
} as const;

describe.each(dbTargets)('instrument names (%s)', (db) => {
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
  });

  it.each(Object.entries(MOUTAI))(
    'answers a quote in %s with the name in that language',
    async (lang, name) => {
      const quote = data(
        await client.withLang(lang).get<Quote>('/api/stock/getSingleStock.do', { code: '600519' }),
      );
      expect(quote.name).toBe(name);
    },
  );

  it('answers every market, indexes and futures with their English names in English', async () => {
    const en = client.withLang('en');
    const names = async (code: string) =>
      data(await en.get<Quote>('/api/stock/getSingleStock.do', { code })).name;
    expect(await names('00700')).toBe('Tencent Holdings');
    expect(await names('AAPL')).toBe('Apple Inc.');
    const cn = data(await en.get<Quote[]>('/api/index/queryListIndex.do', { region: 'cn' }));
    expect(cn.find((q) => q.code === 'SH000001')?.name).toBe('SSE Composite Index');
    const us = data(await en.get<Quote[]>('/api/index/queryListIndex.do', { region: 'us' }));
    expect(us.find((q) => q.code === 'DJI')?.name).toBe('Dow Jones Industrial Average');
    // A local name where one is common: Thai and Vietnamese readers see gold as gold.
    const th = data(
      await client.withLang('th').get<Quote>('/api/futures/querySingleMarket.do', { code: 'AU0' }),
    );
    expect(th.name).toBe('ทองคำ SHFE');
    const tw = data(
      await client.withLang('zh-TW').get<Quote>('/api/stock/getSingleStock.do', { code: '00700' }),
    );
    expect(tw.name).toBe('騰訊控股');
  });

  it('serves a cached quote page in each reader language, not the first reader one', async () => {
    const page = (lang: string) =>
      client
        .withLang(lang)
        .get<Page<Quote>>('/api/stock/getStock.do', { market: 'us', pageNum: 1, pageSize: 100 });
    const zh = data(await page('zh-CN')).list.find((q) => q.code === 'AAPL');
    const en = data(await page('en')).list.find((q) => q.code === 'AAPL');
    const zhAgain = data(await page('zh-CN')).list.find((q) => q.code === 'AAPL');
    expect([zh?.name, en?.name, zhAgain?.name]).toEqual(['苹果', 'Apple Inc.', '苹果']);
  });

  it('finds instruments by English and traditional names, codes and pinyin initials', async () => {
    const find = async (keyword: string, lang = 'en') =>
      data(await client.withLang(lang).get<Quote[]>('/api/realTime/findStock.do', { keyword })).map((q) => [
        q.code,
        q.name,
      ]);
    expect(await find('Tencent Holdings')).toContainEqual(['00700', 'Tencent Holdings']);
    expect(await find('moutai')).toContainEqual(['600519', 'Kweichow Moutai']);
    expect(await find('騰訊', 'zh-TW')).toContainEqual(['00700', '騰訊控股']);
    expect((await find('TXKG', 'zh-CN'))[0]).toEqual(['00700', '腾讯控股']);
    expect((await find('aapl'))[0]).toEqual(['AAPL', 'Apple Inc.']);
    const page = data(
      await client.withLang('en').get<Page<Quote>>('/api/stock/getStock.do', {
        market: 'hk',
        pageNum: 1,
        pageSize: 20,
        keyword: 'tencent',
      }),
    );
    expect(page.list.map((q) => q.code)).toContain('00700');
  });

  it('shows a position, the watchlist and an order message in the reader language', async () => {
    const user = await register(client);
    const bought = data(
      await user.client.withLang('en').post<Position>('/user/buy.do', {
        code: 'AAPL',
        lots: 1,
        leverage: 1,
        requestId: newRequestId(),
      }),
    );
    expect(bought.name).toBe('Apple Inc.');
    const open = (lang: string) =>
      user.client.withLang(lang).get<Page<Position>>('/user/position/list.do', { state: 'open', pageNum: 1 });
    expect(data(await open('zh-CN')).list[0]?.name).toBe('苹果');
    expect(data(await open('zh-TW')).list[0]?.name).toBe('蘋果');
    expect(data(await open('vi')).list[0]?.name).toBe('Apple Inc.');
    await user.client.post('/user/addOption.do', { code: '600519' });
    const watch = data(await user.client.withLang('th').get<Quote[]>('/user/option/list.do'));
    expect(watch.map((q) => q.name)).toEqual(['Kweichow Moutai']);
    // A limit order that fills at once leaves a message naming the instrument.
    const quote = data(await client.get<Quote>('/api/stock/getSingleStock.do', { code: 'MSFT' }));
    data(
      await user.client.post('/user/addOrder.do', {
        code: 'MSFT',
        lots: 1,
        leverage: 1,
        triggerPrice: Math.round(quote.price * 1.2 * 100) / 100,
        requestId: newRequestId(),
      }),
    );
    station.clock.advance(60_000);
    await station.app.engine.step();
    const messages = (lang: string) =>
      user.client.withLang(lang).get<UserMessagePage>('/user/cash/getMessagelist.do', { pageNum: 1 });
    const en = data(await messages('en')).list.map((m) => m.content);
    const zh = data(await messages('zh-CN')).list.map((m) => m.content);
    expect(en.some((c) => c.includes('Microsoft Corporation'))).toBe(true);
    expect(en.some((c) => c.includes('微软'))).toBe(false);
    expect(zh.some((c) => c.includes('微软'))).toBe(true);
    // A US quantity is counted in shares, in the plural form its count takes.
    expect(en.some((c) => c.includes('(MSFT), 1 share, was filled'))).toBe(true);
    expect(zh.some((c) => c.includes('（MSFT）1股已'))).toBe(true);
  });
});

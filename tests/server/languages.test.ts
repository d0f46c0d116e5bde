/**
 * The station's answers in the reader's language (API.md: answers speak the request's Accept-Language): for
 * English, Thai and Vietnamese readers, no Han character, no stored `@key` and no UPPER_SNAKE code in any
 * field the app shows as text — messages, the fund flow, instrument and fund names in lists, details,
 * positions and the watchlist, banners, pay channels and the site's info. News, notices and college articles
 * may still be in Chinese until they are translated, but then their `lang` says so (the app marks them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Banner,
  LedgerEntry,
  NewsItem,
  NoticeItem,
  Page,
  PayChannel,
  Position,
  Quote,
  SiteInfo,
  UserMessagePage,
} from '../../src/shared/api/types';
import type { FundProduct } from '../../src/shared/api/funds';
import type { FixedClock } from '../../server/market/clock';
import { passKyc } from './helpers/identity';
import {
  api,
  data,
  newRequestId,
  register,
  startStation,
  type ApiClient,
  type Registered,
  type TestStation,
} from './helpers/station';

const HAN = /\p{Script=Han}/u;
/** A stored station text not turned into words, or an error or state code shown as it is. */
const RAW = /(^|\s)@[A-Za-z]|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/;

/** What a shown text has that the reader's language should not: a reason, or null. */
function offence(text: string): string | null {
  if (HAN.test(text)) return 'Chinese';
  if (RAW.test(text)) return 'a raw key or code';
  return null;
}

/** `where: text (why)` for every shown field of `items` that offends. */
function leaks<T>(where: string, items: readonly T[], shown: (item: T) => (string | null | undefined)[]) {
  const found: string[] = [];
  for (const item of items) {
    for (const text of shown(item)) {
      const why = text ? offence(text) : null;
      if (why) found.push(`${where}: ${text} (${why})`);
    }
  }
  return found;
}

/** Content is either in the reader's language or says, with its `lang`, that it is Chinese. */
function contentLeaks(where: string, items: readonly { title: string; lang: string }[]): string[] {
  return items
    .filter((item) => (HAN.test(item.title) ? !item.lang.startsWith('zh') : offence(item.title) !== null))
    .map((item) => `${where}: ${item.title} (lang ${item.lang})`);
}

describe('answers in the reader’s language (sqlite)', () => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;
  let user: Registered;

  beforeAll(async () => {
    station = await startStation({ db: 'sqlite', env: { REVIEW_DELAY_S: '0' } });
    client = api(station.url);
    user = await register(client);
    // Messages of every kind a new user gets: KYC passed, a deposit decided, fills of a limit order.
    await passKyc(station, user, '王五');
    data(
      await user.client.post('/user/recharge/inMoney.do', {
        amount: 1234.5,
        channelId: 1,
        requestId: newRequestId(),
      }),
    );
    station.clock.advance(1000);
    await station.app.engine.step();
    for (const [code, lots] of [
      ['AAPL', 3],
      ['600000', 2],
      ['00700', 1],
    ] as const) {
      data(await user.client.post('/user/buy.do', { code, lots, leverage: 2, requestId: newRequestId() }));
      data(await user.client.post('/user/addOption.do', { code }));
    }
    data(
      await user.client.post('/user/transAmt.do', {
        amount: 100,
        from: 'main',
        to: 'index',
        requestId: newRequestId(),
      }),
    );
  });
  afterAll(async () => station?.close());

  it.each(['en', 'th', 'vi'])('shows a %s reader no Chinese, no key and no code', async (lang) => {
    const me = user.client.withLang(lang);
    const anyone = client.withLang(lang);
    const found: string[] = [];

    const messages = data(await me.get<UserMessagePage>('/user/cash/getMessagelist.do', { pageSize: 50 }));
    expect(messages.list.length).toBeGreaterThanOrEqual(2);
    found.push(...leaks('message', messages.list, (m) => [m.title, m.content]));

    const flow = data(
      await me.get<Page<LedgerEntry>>('/user/cash/list.do', { account: 'main', pageNum: 1, pageSize: 50 }),
    );
    expect(flow.list.length).toBeGreaterThan(3);
    found.push(...leaks('fund flow', flow.list, (e) => [e.note]));

    for (const market of ['a', 'hk', 'us']) {
      const quotes = data(await anyone.get<Page<Quote>>('/api/stock/getStock.do', { market, pageSize: 50 }));
      expect(quotes.list.length).toBeGreaterThan(0);
      found.push(...leaks(`${market} list`, quotes.list, (q) => [q.name]));
    }
    for (const code of ['AAPL', '600000', '00700']) {
      const quote = data(await anyone.get<Quote>('/api/stock/getSingleStock.do', { code }));
      found.push(...leaks(`detail ${code}`, [quote], (q) => [q.name]));
    }
    const positions = data(
      await me.get<Page<Position>>('/user/position/list.do', { state: 'open', pageSize: 50 }),
    );
    expect(positions.list).toHaveLength(3);
    found.push(...leaks('positions', positions.list, (p) => [p.name]));
    const watchlist = data(await me.get<Quote[]>('/user/option/list.do'));
    expect(watchlist).toHaveLength(3);
    found.push(...leaks('watchlist', watchlist, (q) => [q.name]));
    const funds = data(await anyone.get<FundProduct[]>('/api/fund/list.do'));
    expect(funds.length).toBeGreaterThan(0);
    found.push(...leaks('funds', funds, (f) => [f.name]));

    const banners = data(await anyone.get<Banner[]>('/api/site/getBannerByPlat.do', { plat: 'h5' }));
    found.push(...leaks('banner', banners, (b) => [b.title]));
    const channels = data(await anyone.get<PayChannel[]>('/api/site/getPayInfo.do'));
    expect(channels.length).toBeGreaterThan(0);
    found.push(...leaks('pay channel', channels, (c) => [c.name, c.payee, c.bank]));
    const info = data(await anyone.get<SiteInfo>('/api/site/getInfo.do'));
    found.push(...leaks('site info', [info], (i) => [i.name, i.about, i.companyName]));

    const news = data(await anyone.get<Page<NewsItem>>('/api/news/getNewsList.do', { pageSize: 15 }));
    const notices = data(await anyone.get<Page<NoticeItem>>('/api/notice/getNoticeList.do'));
    const college = data(await anyone.get<Page<{ title: string; lang: string }>>('/api/art/list.do'));
    expect(news.list.length + notices.list.length + college.list.length).toBeGreaterThan(0);
    found.push(...contentLeaks('news', news.list));
    found.push(...contentLeaks('notice', notices.list));
    found.push(...contentLeaks('college', college.list));

    expect(found).toEqual([]);
  });

  it('tells a leak from a clean answer', () => {
    // The check itself: a Chinese name, a stored key and an error code each offend; a clean text passes.
    expect(offence('苹果')).toBe('Chinese');
    expect(offence('@noteTransferTo {"account":"index"}')).toBe('a raw key or code');
    expect(offence('Rejected: INSUFFICIENT_FUNDS')).toBe('a raw key or code');
    expect(offence('Apple Inc.')).toBeNull();
    expect(offence('Deposit of 1,234.50 via channel A')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { answerKey, classifyApiRequest } from '../../src/sw/api-routes';

describe('service worker: what each call gets', () => {
  it.each([
    ['POST', '/user/buy.do'],
    ['POST', '/user/sell.do'],
    ['POST', '/user/buyIndex.do'],
    ['POST', '/user/transAmt.do'],
    ['POST', '/user/recharge/inMoney.do'],
    ['POST', '/user/withdraw/outMoney.do'],
    ['POST', '/api/user/exchange.do'],
    ['POST', '/user/addOrder.do'],
  ])('sends %s %s over the network only, as a mutation (never cached, queued or replayed)', (method, path) =>
    expect(classifyApiRequest(method, path)).toEqual({ kind: 'network-only', mutation: true }),
  );

  it('queues only the watchlist edits while offline', () => {
    expect(classifyApiRequest('POST', '/user/addOption.do')).toEqual({ kind: 'queue-offline' });
    expect(classifyApiRequest('POST', '/user/delOption.do')).toEqual({ kind: 'queue-offline' });
    expect(classifyApiRequest('POST', '/user/option/sort.do')).toEqual({ kind: 'queue-offline' });
  });

  it("keeps the user's watchlist per user and answers whether a code is watched from it offline", () => {
    expect(classifyApiRequest('GET', '/user/option/list.do')).toEqual({ kind: 'watchlist' });
    expect(classifyApiRequest('GET', '/user/isOption.do')).toEqual({ kind: 'watch-state' });
    // Positions and orders are the user's money: network only, never stored.
    expect(classifyApiRequest('GET', '/user/position/list.do')).toEqual({
      kind: 'network-only',
      mutation: false,
    });
    expect(classifyApiRequest('GET', '/user/order/list.do')).toEqual({
      kind: 'network-only',
      mutation: false,
    });
  });

  it('reads market data network first, into quotes or lists', () => {
    expect(classifyApiRequest('GET', '/api/stock/getSingleStock.do')).toEqual({
      kind: 'network-first',
      store: 'quotes',
    });
    expect(classifyApiRequest('GET', '/api/stock/getStock.do')).toEqual({
      kind: 'network-first',
      store: 'lists',
    });
    expect(classifyApiRequest('GET', '/api/index/queryListIndex.do')).toEqual({
      kind: 'network-first',
      store: 'lists',
    });
  });

  it("reads the competitions network first: the public list, detail and leaderboard as lists, the user's own per user", () => {
    for (const path of [
      '/api/competition/list.do',
      '/api/competition/detail.do',
      '/api/competition/leaderboard.do',
    ]) {
      expect(classifyApiRequest('GET', path), path).toEqual({ kind: 'network-first', store: 'lists' });
    }
    expect(classifyApiRequest('GET', '/user/competition/mine.do')).toEqual({ kind: 'user-network-first' });
    // The entrant's accounts are their money: network only, never stored.
    expect(classifyApiRequest('GET', '/user/competition/accounts.do')).toEqual({
      kind: 'network-only',
      mutation: false,
    });
    for (const path of ['/user/competition/create.do', '/user/competition/join.do']) {
      expect(classifyApiRequest('POST', path), path).toEqual({ kind: 'network-only', mutation: true });
    }
  });

  it('keeps K-lines per family, day or minute', () => {
    expect(classifyApiRequest('GET', '/api/stock/getDayK.do')).toEqual({
      kind: 'kline',
      family: 'stock',
      day: true,
    });
    expect(classifyApiRequest('GET', '/api/stock/getIndexMinK_Echarts.do')).toEqual({
      kind: 'kline',
      family: 'index',
      day: false,
    });
    expect(classifyApiRequest('GET', '/api/stock/getFuturesDayK.do')).toEqual({
      kind: 'kline',
      family: 'futures',
      day: true,
    });
  });

  it('serves news and articles stale-while-revalidate', () => {
    expect(classifyApiRequest('GET', '/api/news/getNewsList.do')).toMatchObject({ store: 'news' });
    expect(classifyApiRequest('GET', '/api/news/getDetail.do')).toMatchObject({
      kind: 'stale-while-revalidate',
      store: 'news',
    });
    for (const path of ['/api/stock/getStockNews.do', '/api/stock/getStockNewsDetail.do'])
      expect(classifyApiRequest('GET', path)).toMatchObject({
        kind: 'stale-while-revalidate',
        store: 'news',
      });
    expect(classifyApiRequest('GET', '/api/stock/getStockFigures.do')).toMatchObject({ store: 'lists' });
    expect(classifyApiRequest('GET', '/api/art/detail.do')).toMatchObject({
      kind: 'stale-while-revalidate',
      store: 'articles',
    });
  });

  it('never stores private reads, the ping, and leaves the live stream and app routes alone', () => {
    expect(classifyApiRequest('GET', '/user/position/list.do')).toEqual({
      kind: 'network-only',
      mutation: false,
    });
    expect(classifyApiRequest('GET', '/api/index/ping.do')).toEqual({
      kind: 'network-only',
      mutation: false,
    });
    expect(classifyApiRequest('GET', '/api/stream/quotes')).toEqual({ kind: 'stream' });
    expect(classifyApiRequest('GET', '/user')).toBeNull();
    expect(classifyApiRequest('GET', '/assets/index.js')).toBeNull();
  });

  it('keys a stored answer by language, path and sorted parameters', () => {
    const a = answerKey(new URL('http://x.test/api/stock/getStock.do?pageSize=30&market=a&pageNum=1'), 'en');
    const b = answerKey(new URL('http://x.test/api/stock/getStock.do?market=a&pageNum=1&pageSize=30'), 'en');
    expect(a).toBe(b);
    expect(a).toBe('en /api/stock/getStock.do?market=a&pageNum=1&pageSize=30');
    expect(answerKey(new URL('http://x.test/api/stock/getStock.do?market=a'), 'zh-CN')).not.toBe(
      answerKey(new URL('http://x.test/api/stock/getStock.do?market=a'), 'en'),
    );
  });
});

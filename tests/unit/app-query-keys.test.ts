/**
 * The query cache's keys and which queries each change makes stale (src/app/api/query-keys.ts), checked
 * on a real QueryClient: a query is stale after a change exactly when the map names its call.
 */
import { describe, expect, it } from 'vitest';
import { hashKey } from '@tanstack/react-query';
import {
  callPrefix,
  INTENT_CALLS,
  INVALIDATES,
  invalidatedBy,
  queryKeyOf,
  type MutationCallKey,
  type QueryCallKey,
} from '../../src/app/api/query-keys';
import { intentIds } from '../../src/app/api/request-id';
import { invalidateAfter, queryClient } from '../../src/app/api/station-query';

/** One cached answer for each of these reads, fresh, with different inputs for the paged ones. */
const CACHED: readonly (readonly [QueryCallKey, object])[] = [
  ['GET /user/position/list.do', { state: 'open', pageNum: 1, pageSize: 100 }],
  ['GET /user/position/list.do', { state: 'closed', pageNum: 1, pageSize: 100 }],
  ['GET /user/order/list.do', { pageNum: 1, pageSize: 100 }],
  ['GET /user/getUserInfo.do', {}],
  ['GET /user/cash/list.do', { pageSize: 20, account: 'main' }],
  ['GET /user/withdraw/info.do', {}],
  ['GET /user/option/list.do', {}],
  ['GET /api/stock/getSingleStock.do', { code: 'AAPL' }],
  ['GET /api/admin/getProductSetting.do', {}],
];

/** Fills the cache afresh, runs the change's invalidation and returns the calls of the stale queries. */
async function staleAfter(change: MutationCallKey): Promise<string[]> {
  queryClient.clear();
  for (const [key, input] of CACHED) queryClient.setQueryData([key, input, 'zh-CN'], { cached: true });
  await invalidateAfter(change);
  return [
    ...new Set(
      queryClient
        .getQueryCache()
        .getAll()
        .filter((query) => query.state.isInvalidated)
        .map((query) => String(query.queryKey[0])),
    ),
  ].sort();
}

describe('query keys', () => {
  it('are the call and its input; the same parameters in another order or with undefined ones are one key', () => {
    const a = queryKeyOf('GET /user/position/list.do', { state: 'open', pageNum: 1, pageSize: 100 }, 'en');
    const b = queryKeyOf('GET /user/position/list.do', { pageSize: 100, pageNum: 1, state: 'open' }, 'en');
    const c = queryKeyOf('GET /user/cash/list.do', { pageSize: 20, account: undefined, type: 'buy' }, 'en');
    expect(a[0]).toBe('GET /user/position/list.do');
    expect(hashKey(a)).toBe(hashKey(b));
    expect(c[1]).toEqual({ pageSize: 20, type: 'buy' });
    expect(hashKey(c)).toBe(
      hashKey(queryKeyOf('GET /user/cash/list.do', { pageSize: 20, type: 'buy' }, 'en')),
    );
  });

  it('differ for another input or another call', () => {
    const open = queryKeyOf('GET /user/position/list.do', { state: 'open', pageSize: 100 }, 'en');
    const closed = queryKeyOf('GET /user/position/list.do', { state: 'closed', pageSize: 100 }, 'en');
    const stock = queryKeyOf('GET /api/stock/getSingleStock.do', { code: 'AAPL' }, 'en');
    const index = queryKeyOf('GET /api/index/querySingleIndex.do', { code: 'AAPL' }, 'en');
    expect(hashKey(open)).not.toBe(hashKey(closed));
    expect(hashKey(stock)).not.toBe(hashKey(index));
    expect(callPrefix('GET /user/order/list.do')).toEqual(['GET /user/order/list.do']);
  });

  it('differ by language, so switching language asks the station again (answers speak Accept-Language)', async () => {
    const en = queryKeyOf('GET /api/news/getNewsList.do', { pageSize: 15 }, 'en');
    const th = queryKeyOf('GET /api/news/getNewsList.do', { pageSize: 15 }, 'th');
    expect(hashKey(en)).not.toBe(hashKey(th));
    // A change still makes every language's answer stale: the prefix is the call alone.
    queryClient.clear();
    for (const locale of ['en', 'zh-CN']) {
      queryClient.setQueryData(queryKeyOf('GET /user/order/list.do', { pageSize: 100 }, locale), {
        cached: true,
      });
    }
    await invalidateAfter('POST /user/order/cancel.do');
    const stale = queryClient
      .getQueryCache()
      .findAll({ queryKey: callPrefix('GET /user/order/list.do') })
      .filter((query) => query.state.isInvalidated);
    expect(stale.map((query) => query.queryKey[2]).sort()).toEqual(['en', 'zh-CN']);
  });
});

describe('invalidation map', () => {
  it('a buy makes positions (open and closed), accounts, orders, the fund flow and withdrawable cash stale', async () => {
    expect(await staleAfter('POST /user/buy.do')).toEqual([
      'GET /user/cash/list.do',
      'GET /user/getUserInfo.do',
      'GET /user/order/list.do',
      'GET /user/position/list.do',
      'GET /user/withdraw/info.do',
    ]);
    const cache = queryClient.getQueryCache();
    expect(
      cache.find({ queryKey: ['GET /user/position/list.do', CACHED[1]![1], 'zh-CN'] })?.state.isInvalidated,
    ).toBe(true);
  });

  it('revoking a limit order makes orders and accounts stale, not positions or the fund flow', async () => {
    expect(await staleAfter('POST /user/order/cancel.do')).toEqual([
      'GET /user/getUserInfo.do',
      'GET /user/order/list.do',
      'GET /user/withdraw/info.do',
    ]);
  });

  it('closing, contract buys and block trades refresh like a buy; stops only the positions', async () => {
    const buy = await staleAfter('POST /user/buy.do');
    expect(await staleAfter('POST /user/sell.do')).toEqual(buy);
    expect(await staleAfter('POST /user/buyIndex.do')).toEqual(buy);
    expect(await staleAfter('POST /user/buyFutures.do')).toEqual(buy);
    expect(await staleAfter('POST /user/position/setStops.do')).toEqual(['GET /user/position/list.do']);
  });

  it('a product purchase refreshes the offer it took from, so no screen reloads by hand', () => {
    expect(invalidatedBy('POST /user/buyStockDz.do')).toContain('GET /api/stock/getDzList.do');
    expect(invalidatedBy('POST /user/buyVipQc.do')).toContain('GET /api/stock/getVipByCode.do');
    expect(invalidatedBy('POST /user/add.do')).toContain('GET /user/newStockList.do');
    expect(invalidatedBy('POST /user/submitSubscribe.do')).toContain('GET /user/newStockList.do');
    expect(invalidatedBy('POST /user/fund/buy.do')).toContain('GET /user/fund/holdings.do');
  });

  it('money moves refresh the accounts and the fund flow, never the market', async () => {
    for (const change of [
      'POST /user/transAmt.do',
      'POST /api/user/exchange.do',
      'POST /user/withdraw/outMoney.do',
      'POST /user/fund/buy.do',
    ] as const) {
      const stale = await staleAfter(change);
      expect(stale).toContain('GET /user/getUserInfo.do');
      expect(stale).toContain('GET /user/cash/list.do');
      expect(stale).not.toContain('GET /api/stock/getSingleStock.do');
      expect(stale).not.toContain('GET /user/position/list.do');
    }
  });

  it('the watchlist changes refresh the watchlist only; a login or an SMS nothing', async () => {
    expect(await staleAfter('POST /user/addOption.do')).toEqual(['GET /user/option/list.do']);
    expect(await staleAfter('POST /user/option/sort.do')).toEqual(['GET /user/option/list.do']);
    expect(await staleAfter('POST /api/user/login.do')).toEqual([]);
    expect(await staleAfter('POST /api/sms/sendRegSms.do')).toEqual([]);
  });

  it('names only reads, each once, and every change that carries a requestId moves something', () => {
    for (const change of Object.keys(INVALIDATES) as MutationCallKey[]) {
      const stale = invalidatedBy(change);
      expect(new Set(stale).size).toBe(stale.length);
      for (const key of stale) expect(key.startsWith('GET ')).toBe(true);
    }
    for (const change of Object.keys(INTENT_CALLS) as MutationCallKey[]) {
      expect(invalidatedBy(change).length).toBeGreaterThan(0);
    }
  });
});

describe('request ids: one per user intent', () => {
  it('a retry of the same input reuses the id; a changed input or a settled intent gets a new one', () => {
    const ids = intentIds('POST /user/order/cancel.do');
    const first = ids.idFor({ orderId: 7 });
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ids.idFor({ orderId: 7 })).toBe(first);
    const other = ids.idFor({ orderId: 8 });
    expect(other).not.toBe(first);
    ids.settle();
    expect(ids.idFor({ orderId: 8 })).not.toBe(other);
  });

  it('a sheet opened again with the same unanswered order reuses its id; another call does not', () => {
    const lost = intentIds('POST /user/fund/buy.do').idFor({ code: '110011', amount: 50 });
    // The sheet closed without an answer; a new one (a new mutation) with the same order is the same intent.
    const reopened = intentIds('POST /user/fund/buy.do');
    expect(reopened.idFor({ amount: 50, code: '110011' })).toBe(lost);
    expect(intentIds('POST /user/fund/sell.do').idFor({ code: '110011', amount: 50 })).not.toBe(lost);
    reopened.settle();
    expect(intentIds('POST /user/fund/buy.do').idFor({ code: '110011', amount: 50 })).not.toBe(lost);
  });
});

import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { mergeBars, sliceBars } from '../../src/db/bars';
import { DataCache, klineKey, STORE_LIMITS, type KlineKey } from '../../src/db/data-cache';
import { DB_VERSION, MIGRATIONS, upgradeSchema, type PaperDeskDb } from '../../src/db/schema';
import type { Bar } from '../../src/shared/api/types';

let dbSerial = 0;
const freshName = () => `paperdesk-test-${++dbSerial}`;

/** A cache on a fresh database with a clock the test moves by hand. */
async function openCache(limits = STORE_LIMITS) {
  const clock = { now: 1_000_000 };
  const cache = await DataCache.open({ name: freshName(), limits, now: () => clock.now });
  return { cache, clock };
}

const bar = (t: number, close = 10): Bar => [t, close, close, close, close, 100];

describe('IndexedDB data layer: answers', () => {
  it('keeps an answer with the time it was stored and gives it back', async () => {
    const { cache } = await openCache();
    await cache.writeAnswer('lists', 'en /api/stock/getStock.do?market=a', { list: [1, 2], total: 2 });
    const entry = await cache.readAnswer('lists', 'en /api/stock/getStock.do?market=a');
    expect(entry?.data).toEqual({ list: [1, 2], total: 2 });
    expect(entry?.cachedAt).toBe(1_000_000);
    expect(await cache.readAnswer('lists', 'en /api/stock/getStock.do?market=hk')).toBeUndefined();
  });

  it('evicts the least recently used entries past the entry bound; a read counts as a use', async () => {
    const limits = { ...STORE_LIMITS, news: { maxEntries: 3, maxBytes: 1_000_000 } };
    const { cache, clock } = await openCache(limits);
    for (const id of [1, 2, 3]) {
      clock.now += 1000;
      await cache.writeAnswer('news', `n${id}`, { id });
    }
    clock.now += 1000;
    await cache.readAnswer('news', 'n1'); // n1 is now more recent than n2 and n3
    clock.now += 1000;
    await cache.writeAnswer('news', 'n4', { id: 4 });
    expect(await cache.readAnswer('news', 'n2')).toBeUndefined();
    for (const kept of ['n1', 'n3', 'n4']) expect(await cache.readAnswer('news', kept)).toBeDefined();
    expect(await cache.db.count('news')).toBe(3);
  });

  it('stays within its byte bound, counting replaced entries once', async () => {
    const limits = { ...STORE_LIMITS, articles: { maxEntries: 100, maxBytes: 2500 } };
    const { cache, clock } = await openCache(limits);
    const body = (n: number) => ({ text: 'x'.repeat(1000), n });
    await cache.writeAnswer('articles', 'a1', body(1));
    clock.now += 1;
    await cache.writeAnswer('articles', 'a1', body(2)); // a replacement, not a second entry
    expect(await cache.usage('articles')).toBeLessThan(1100);
    clock.now += 1;
    await cache.writeAnswer('articles', 'a2', body(3));
    clock.now += 1;
    await cache.writeAnswer('articles', 'a3', body(4));
    expect(await cache.usage('articles')).toBeLessThanOrEqual(2500);
    expect(await cache.readAnswer('articles', 'a1')).toBeUndefined();
    expect((await cache.readAnswer('articles', 'a3'))?.data).toEqual(body(4));
  });

  it('keeps settings and the base URL apart from the bounded stores', async () => {
    const { cache } = await openCache();
    await cache.setConfig('baseUrl', 'https://api.test');
    expect(await cache.getConfig('baseUrl')).toBe('https://api.test');
    await cache.deleteConfig('baseUrl');
    expect(await cache.getConfig('baseUrl')).toBeUndefined();
  });
});

describe('IndexedDB data layer: K-lines', () => {
  const key: KlineKey = { family: 'stock-day', code: '600519', period: 'day', adjust: 'forward' };

  it('merges new bars into a chart’s stored bars by time, the newest bar replacing its older self', async () => {
    const { cache } = await openCache();
    await cache.mergeBars(key, [bar(1), bar(2), bar(3)]);
    const merged = await cache.mergeBars(key, [bar(3, 12), bar(4)]);
    expect(merged.map((b) => b[0])).toEqual([1, 2, 3, 4]);
    expect(merged[2]?.[4]).toBe(12);
    expect((await cache.readBars(key))?.data).toEqual(merged);
  });

  it('keeps each code, period and adjustment apart, and replaces the intraday chart', async () => {
    const { cache } = await openCache();
    await cache.mergeBars(key, [bar(1)]);
    await cache.mergeBars({ ...key, adjust: 'none' }, [bar(9)]);
    expect((await cache.readBars(key))?.data.map((b) => b[0])).toEqual([1]);
    const intraday = { family: 'stock-min', code: '600519', period: 'intraday', adjust: 'none' };
    await cache.mergeBars(intraday, [bar(1), bar(2)]);
    await cache.mergeBars(intraday, [bar(5)], true);
    expect((await cache.readBars(intraday))?.data.map((b) => b[0])).toEqual([5]);
    expect(klineKey(key)).toBe('stock-day|600519|day|forward');
  });

  it('orders, bounds and slices bars as the calls would', () => {
    expect(mergeBars([bar(3), bar(1)], [bar(2)]).map((b) => b[0])).toEqual([1, 2, 3]);
    expect(mergeBars([bar(1), bar(2), bar(3)], [bar(4)], 2).map((b) => b[0])).toEqual([3, 4]);
    const bars = [1, 2, 3, 4, 5].map((t) => bar(t));
    expect(sliceBars(bars, undefined, 2).map((b) => b[0])).toEqual([4, 5]);
    expect(sliceBars(bars, 4, 2).map((b) => b[0])).toEqual([2, 3]);
    expect(sliceBars(bars).length).toBe(5);
  });
});

describe('IndexedDB data layer: outbox and schema', () => {
  it('gives queued watchlist edits back oldest first until they are sent', async () => {
    const { cache } = await openCache();
    const a = await cache.enqueue({
      path: '/user/addOption.do',
      body: 'code=AAPL',
      headers: {},
      queuedAt: 1,
    });
    await cache.enqueue({ path: '/user/delOption.do', body: 'code=TSLA', headers: {}, queuedAt: 2 });
    expect((await cache.queued()).map((e) => e.body)).toEqual(['code=AAPL', 'code=TSLA']);
    await cache.dequeue(a);
    expect((await cache.queued()).map((e) => e.body)).toEqual(['code=TSLA']);
  });

  it('upgrades a database of version 1 to the current version and keeps what it held', async () => {
    const name = freshName();
    const v1 = await openDB<PaperDeskDb>(name, 1, {
      upgrade: (db, oldVersion, _newVersion, tx) => upgradeSchema(db, oldVersion, 1, tx),
    });
    await v1.put('lists', { key: 'k', data: [1], cachedAt: 5, lastUsed: 5, size: 3 });
    expect([...v1.objectStoreNames]).toEqual(['config', 'lists', 'quotes']);
    v1.close();

    const cache = await DataCache.open({ name });
    expect(cache.db.version).toBe(DB_VERSION);
    expect(DB_VERSION).toBe(MIGRATIONS.length);
    expect([...cache.db.objectStoreNames].sort()).toEqual(
      ['articles', 'config', 'klines', 'lists', 'news', 'outbox', 'quotes'].sort(),
    );
    expect((await cache.readAnswer('lists', 'k'))?.data).toEqual([1]);
  });
});

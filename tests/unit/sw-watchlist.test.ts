import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { DataCache } from '../../src/db/data-cache';
import type { Quote } from '../../src/shared/api/types';
import { CACHED_AT_HEADER, QUEUED_HEADER } from '../../src/shared/sw-protocol';
import { DataLayer } from '../../src/sw/data-layer';
import { Outbox, QueueWhenOffline } from '../../src/sw/outbox';
import { WatchlistNetworkFirst, WatchStateFromList } from '../../src/sw/watchlist';
import {
  applyQueuedEdits,
  arranged,
  asQuote,
  quoteWithin,
  userAnswerKey,
  userIdentity,
} from '../../src/sw/watchlist-edits';

// workbox's modules read `self` when they load, and its strategies check the events they are given; in a
// service worker these are the global scope's.
vi.hoisted(() => {
  const scope = globalThis as Record<string, unknown>;
  scope.self ??= globalThis;
  class ExtendableEvent extends Event {
    waitUntil(): void {}
  }
  scope.ExtendableEvent ??= ExtendableEvent;
  scope.FetchEvent ??= class FetchEvent extends ExtendableEvent {};
});

const quote = (code: string, name = code): Quote => ({
  code,
  name,
  market: 'us',
  price: 10,
  prevClose: 9,
  open: 9,
  high: 11,
  low: 9,
  change: 1,
  changePct: 0.1,
  volume: 1,
  turnover: 10,
  time: 1,
});
const codes = (items: readonly { code: string }[]) => items.map((item) => item.code);
const add = (code: string) => ({ path: '/user/addOption.do', body: `code=${code}` });
const del = (code: string) => ({ path: '/user/delOption.do', body: `code=${code}` });
const sort = (order: string) => ({
  path: '/user/option/sort.do',
  body: `codes=${encodeURIComponent(order)}`,
});

describe('watchlist edits applied as the station applies them', () => {
  it('adds on top, removes, and reorders with codes added or removed meanwhile', () => {
    const list = ['A', 'B', 'C'].map((c) => quote(c));
    const known = (code: string) => quote(code);
    expect(codes(applyQueuedEdits(list, [add('d'), del('B')], known))).toEqual(['D', 'A', 'C']);
    // Adding what is there keeps its place; removing what is not there changes nothing.
    expect(codes(applyQueuedEdits(list, [add('C'), del('Z')], known))).toEqual(['A', 'B', 'C']);
    // A reorder given before an add and a remove: the add stays above, the removed code is skipped.
    expect(codes(applyQueuedEdits(list, [sort('C,B,A'), add('D'), del('B')], known))).toEqual([
      'D',
      'C',
      'A',
    ]);
    expect(codes(applyQueuedEdits(list, [add('D'), sort('C,A,B')], known))).toEqual(['D', 'C', 'A', 'B']);
    // A code with no quote on the device is left out until the station answers.
    expect(codes(applyQueuedEdits(list, [add('X')], () => undefined))).toEqual(['A', 'B', 'C']);
  });

  it('a code removed and added again offline comes back on top, with its stored quote; a reorder after it keeps it', () => {
    const list = ['A', 'B', 'C'].map((c) => quote(c));
    // Nothing else on the device knows B: its item is the one on the stored list.
    const nowhere = () => undefined;
    const readded = applyQueuedEdits(list, [del('B'), add('B')], nowhere);
    expect(codes(readded)).toEqual(['B', 'A', 'C']);
    expect(readded[0]).toBe(list[1]);
    // The user then arranges what they see; the last reorder says the whole order.
    expect(codes(applyQueuedEdits(list, [del('B'), add('B'), sort('C,A,B')], nowhere))).toEqual([
      'C',
      'A',
      'B',
    ]);
    // Removed, added, removed again: gone.
    expect(codes(applyQueuedEdits(list, [del('B'), add('B'), del('B')], nowhere))).toEqual(['A', 'C']);
  });

  it('refuses a reorder naming a code twice, as the station does', () => {
    const list = ['A', 'B'].map((c) => ({ code: c }));
    expect(codes(arranged(list, 'B,A,B'))).toEqual(['A', 'B']);
    expect(codes(arranged(list, ' b , a '))).toEqual(['B', 'A']);
  });

  it('finds a quote in a detail, a list or a page, with only the fields of a quote', () => {
    const detail = { ...quote('TSLA', 'Tesla'), book: { bids: [] }, lotSize: 1 };
    expect(asQuote(detail)).toEqual(quote('TSLA', 'Tesla'));
    expect(asQuote({ code: 'X', name: 'x' })).toBeUndefined();
    expect(quoteWithin(detail, 'TSLA')?.name).toBe('Tesla');
    expect(quoteWithin([quote('A'), quote('B')], 'B')?.code).toBe('B');
    expect(quoteWithin({ list: [quote('A')], total: 1 }, 'A')?.code).toBe('A');
    expect(quoteWithin({ list: [quote('A')], total: 1 }, 'B')).toBeUndefined();
  });

  it('keys a stored answer by a hash of the token: never the token, never shared between users', () => {
    const one = userIdentity('Bearer token-one');
    const two = userIdentity('Bearer token-two');
    expect(one).toMatch(/^[0-9a-f]{64}$/);
    expect(one).not.toBe(two);
    expect(userIdentity('Bearer token-one')).toBe(one);
    expect(userIdentity(null)).toBeNull();
    expect(userAnswerKey(one!, 'en /user/option/list.do')).not.toContain('token-one');
    expect(userAnswerKey(one!, 'k').startsWith('user:')).toBe(true);
  });
});

const ORIGIN = 'http://app.test';
const CATALOGUE: Record<string, Quote> = Object.fromEntries(
  ['AAPL', 'TSLA', 'MSFT', 'NVDA'].map((code) => [code, quote(code, `${code} Inc.`)]),
);

/**
 * A station in memory (each token its own watchlist, with server/trading/watchlist.ts's rules) behind a
 * network the test turns off and on, and a service worker's data layer, outbox and watchlist strategies
 * in front of it.
 */
async function setUp() {
  const network = { up: true, edits: [] as string[] };
  const lists = new Map<string, string[]>([
    ['Bearer one', ['AAPL', 'TSLA', 'MSFT']],
    ['Bearer two', ['NVDA']],
  ]);
  const envelope = (data: unknown) =>
    new Response(JSON.stringify({ status: 0, msg: '', data }), {
      headers: { 'Content-Type': 'application/json' },
    });
  const fetch = async (input: string | Request): Promise<Response> => {
    const request = typeof input === 'string' ? new Request(input) : input;
    if (!network.up) throw new TypeError('Failed to fetch');
    const url = new URL(request.url);
    if (url.pathname === '/config/api-1.json') return new Response(JSON.stringify({ ads: '/' }));
    if (url.pathname === '/api/index/ping.do') return envelope({ serverTime: 1, version: '0.1.0' });
    const list = lists.get(request.headers.get('Authorization') ?? '') ?? [];
    if (url.pathname === '/user/option/list.do') return envelope(list.map((code) => CATALOGUE[code]));
    if (url.pathname === '/user/isOption.do') {
      return envelope({ watched: list.includes(url.searchParams.get('code') ?? '') });
    }
    const body = new URLSearchParams(await request.text());
    network.edits.push(`${url.pathname} ${body.toString()}`);
    const code = body.get('code') ?? '';
    if (url.pathname === '/user/addOption.do' && !list.includes(code)) list.unshift(code);
    if (url.pathname === '/user/delOption.do' && list.includes(code)) list.splice(list.indexOf(code), 1);
    if (url.pathname === '/user/option/sort.do') {
      const wanted = (body.get('codes') ?? '').split(',');
      const order = [...list.filter((c) => !wanted.includes(c)), ...wanted.filter((c) => list.includes(c))];
      list.splice(0, list.length, ...order);
    }
    return envelope(null);
  };
  const layer = new DataLayer({
    origin: ORIGIN,
    configSources: [`${ORIGIN}/config/api-1.json`],
    appVersion: '0.1.0',
    fetch,
    onBaseUrl: () => undefined,
    onServerVersion: () => undefined,
    isBrowserOffline: () => !network.up,
  });
  const cache = await layer.cache();
  await cache.db.clear('outbox');
  await cache.db.clear('config');
  await cache.db.clear('quotes');
  const outbox = new Outbox(layer, fetch, () => Promise.resolve());
  const event = () =>
    new (globalThis as unknown as { ExtendableEvent: typeof Event })['ExtendableEvent']('fetch');
  const headers = (token: string) => ({
    Authorization: `Bearer ${token}`,
    'Accept-Language': 'en',
    'Content-Type': 'application/x-www-form-urlencoded;charset=UTF-8',
  });
  type Handling = Parameters<WatchlistNetworkFirst['handle']>[0];
  const handling = (request: Request) => ({ request, event: event() }) as unknown as Handling;
  const listStrategy = new WatchlistNetworkFirst(layer, outbox);
  const stateStrategy = new WatchStateFromList(layer, outbox);
  const editStrategy = new QueueWhenOffline(layer, outbox);
  const read = async (token: string) => {
    const response = await listStrategy.handle(
      handling(new Request(`${ORIGIN}/user/option/list.do`, { headers: headers(token) })),
    );
    const body = (await response.json()) as { data: Quote[] };
    return { codes: codes(body.data), names: body.data.map((q) => q.name), response };
  };
  const watched = async (token: string, code: string) => {
    const response = await stateStrategy.handle(
      handling(new Request(`${ORIGIN}/user/isOption.do?code=${code}`, { headers: headers(token) })),
    );
    return ((await response.json()) as { data: { watched: boolean } }).data.watched;
  };
  const send = async (token: string, path: string, body: string) =>
    editStrategy.handle(
      handling(new Request(`${ORIGIN}${path}`, { method: 'POST', headers: headers(token), body })),
    );
  const goOffline = () => {
    network.up = false;
    layer.setPageOnline(false);
  };
  const goOnline = () => {
    network.up = true;
    layer.setPageOnline(true);
  };
  return { network, lists, cache, outbox, read, watched, send, goOffline, goOnline };
}

describe('service worker: the watchlist offline', () => {
  it('shows the stored list with the queued edits at once, and sends them in order, once, back online', async () => {
    const { network, lists, cache, outbox, read, watched, send, goOffline, goOnline } = await setUp();
    expect((await read('one')).codes).toEqual(['AAPL', 'TSLA', 'MSFT']);
    // A detail seen online: its quote shows the code added offline.
    await cache.writeAnswer('quotes', 'en /api/stock/getSingleStock.do?code=NVDA', {
      ...CATALOGUE.NVDA,
      book: {},
    });

    goOffline();
    const stored = await read('one');
    expect(stored.codes).toEqual(['AAPL', 'TSLA', 'MSFT']);
    expect(stored.response.headers.get(CACHED_AT_HEADER)).not.toBeNull();

    const removed = await send('one', '/user/delOption.do', 'code=TSLA');
    expect(removed.headers.get(QUEUED_HEADER)).toBe('1');
    await send('one', '/user/addOption.do', 'code=NVDA');
    await send('one', '/user/option/sort.do', 'codes=MSFT%2CNVDA%2CAAPL');
    await send('one', '/user/option/sort.do', 'codes=NVDA%2CMSFT%2CAAPL');
    const edited = await read('one');
    expect(edited.codes).toEqual(['NVDA', 'MSFT', 'AAPL']);
    expect(edited.names[0]).toBe('NVDA Inc.');
    expect(edited.response.headers.get(CACHED_AT_HEADER)).toBe(stored.response.headers.get(CACHED_AT_HEADER));
    expect(await watched('one', 'NVDA')).toBe(true);
    expect(await watched('one', 'TSLA')).toBe(false);
    // The last reorder replaced the one before it.
    expect((await cache.queued()).map((e) => e.path)).toEqual([
      '/user/delOption.do',
      '/user/addOption.do',
      '/user/option/sort.do',
    ]);
    expect(network.edits).toEqual([]);

    goOnline();
    await outbox.flush();
    expect(network.edits).toEqual([
      '/user/delOption.do code=TSLA',
      '/user/addOption.do code=NVDA',
      '/user/option/sort.do codes=NVDA%2CMSFT%2CAAPL',
    ]);
    expect(lists.get('Bearer one')).toEqual(['NVDA', 'MSFT', 'AAPL']);
    const fresh = await read('one');
    expect(fresh.codes).toEqual(['NVDA', 'MSFT', 'AAPL']);
    expect(fresh.response.headers.get(CACHED_AT_HEADER)).toBeNull();
    await outbox.flush();
    expect(network.edits).toHaveLength(3);
  });

  it('keeps each user their own list and edits; logout forgets them all', async () => {
    const { cache, read, send, goOffline } = await setUp();
    await read('one');
    await read('two');
    goOffline();
    await send('one', '/user/delOption.do', 'code=AAPL');
    expect((await read('one')).codes).toEqual(['TSLA', 'MSFT']);
    expect((await read('two')).codes).toEqual(['NVDA']);
    // A third session never read its list here: nothing to show offline, nobody else's list either.
    await expect(read('three')).rejects.toThrow();

    await cache.forgetUsers();
    expect(await cache.queued()).toEqual([]);
    await expect(read('one')).rejects.toThrow();
    // The service worker's own facts stay.
    expect(await cache.getConfig('baseUrl')).toBe(ORIGIN);
  });

  it('sends an edit made online after the ones queued before it', async () => {
    const { network, lists, send, goOffline, goOnline } = await setUp();
    goOffline();
    await send('one', '/user/delOption.do', 'code=AAPL');
    goOnline();
    // Online again before the outbox was flushed: the remove goes first, then the add.
    await send('one', '/user/addOption.do', 'code=AAPL');
    expect(network.edits).toEqual(['/user/delOption.do code=AAPL', '/user/addOption.do code=AAPL']);
    expect(lists.get('Bearer one')).toEqual(['AAPL', 'TSLA', 'MSFT']);
  });

  it('opens a DataCache of its own at logout on the page', async () => {
    const { cache, read, goOffline } = await setUp();
    await read('one');
    const { forgetUserData } = await import('../../src/db/user-data');
    await forgetUserData();
    goOffline();
    await expect(read('one')).rejects.toThrow();
    expect(await (await DataCache.open()).queued()).toEqual([]);
    expect(await cache.getConfig('baseUrl')).toBe(ORIGIN);
  });
});

import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import type { AnyRoute } from '@tanstack/react-router';
import { queryKeyOf } from '../../src/app/api/query-keys';
import { USER_READ, type StationRead } from '../../src/app/api/reads';
import { homeReads } from '../../src/app/routes/home/home-reads';
import { stockRead } from '../../src/app/routes/market/market-reads';
import { orderScreenReads, positionsRead } from '../../src/app/routes/trade/trade-reads';
import { startPreloading } from '../../src/app/routes/route-prefetch';
import type { RouterContext } from '../../src/app/routes/route-tree';
import { locale$ } from '../../src/app/state/locale';
import { clearSession, setSession } from '../../src/app/state/session';
import type { User } from '../../src/shared/api/types';
import { appRouter } from '../app-routes';

const user: User = {
  id: 1,
  phone: '139****1234',
  realName: null,
  kycStatus: 'none',
  kycFailReason: null,
  hasBankCard: false,
  hasWithdrawPassword: false,
  inviteCode: 'ABC123',
  accounts: [],
};

let queryClient: QueryClient;
let router: ReturnType<typeof appRouter>;
/** The calls the station was asked (the answers never come: only the asking matters here). */
let asked: string[];

beforeEach(() => {
  queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  router = appRouter(queryClient);
  asked = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      asked.push(new URL(url, 'http://station').pathname);
      return new Promise(() => {});
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});

/** Runs a route's loader as the router does on a preload or a navigation, with the deps it would pass. */
function load(path: string, deps: Record<string, unknown> = {}): unknown {
  const route = (router.routesByPath as Record<string, AnyRoute>)[path]!;
  const loader = route.options.loader as (ctx: { context: RouterContext; deps: object }) => unknown;
  return loader({ context: { queryClient }, deps });
}

const cachedKeys = (): QueryKey[] =>
  queryClient
    .getQueryCache()
    .getAll()
    .map((query) => query.queryKey);

/** The cache keys the screen's own hooks give these reads (useStationQuery: call, input, language). */
const keysOf = (reads: readonly StationRead[]): QueryKey[] =>
  reads.map((read) => queryKeyOf(read.key, read.input, locale$.peek()));

describe('before the first screen is in', () => {
  it('loaders leave it to ask for itself: no preloading code on the first visit', async () => {
    load('/home');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(cachedKeys()).toEqual([]);
    expect(asked).toEqual([]);
  });
});

describe('route loaders', () => {
  beforeAll(startPreloading);

  it('start /home’s first reads under the keys its screen reads, without waiting for them', async () => {
    expect(load('/home')).toBeUndefined();
    await vi.waitFor(() => expect(cachedKeys()).toHaveLength(5));
    expect(cachedKeys()).toEqual(expect.arrayContaining(keysOf(homeReads(locale$.peek()))));
  });

  it('start a stock’s quote for /listdetail, and nothing without a code', async () => {
    load('/listdetail', { code: '600000' });
    await vi.waitFor(() => expect(cachedKeys()).toEqual(keysOf([stockRead('600000')])));
    expect(asked).toEqual(['/api/stock/getSingleStock.do']);
  });

  it('ask no call of the user’s own without a session', async () => {
    load('/buy', { code: '600000' });
    load('/warehouse', {});
    load('/MyList');
    await vi.waitFor(() => expect(asked.length).toBeGreaterThan(0));
    // Give the other loaders' reads the same time to start.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked.filter((path) => path.includes('/user/'))).toEqual([]);
    expect(cachedKeys().filter((key) => String(key[0]).includes('/user/'))).toEqual([]);
  });

  it('with a session, start an order screen’s and /warehouse’s reads of the user’s accounts and positions', async () => {
    setSession('token', user);
    load('/buy', { code: '600000' });
    load('/warehouse', {});
    const expected = keysOf([...orderScreenReads('stock', '600000'), positionsRead('open'), USER_READ]);
    await vi.waitFor(() => expect(cachedKeys()).toEqual(expect.arrayContaining(expected)));
    expect(asked).toContain('/user/position/list.do');
  });
});

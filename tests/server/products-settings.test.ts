/**
 * The products' terms are station settings (settings.products in server/config.ts), not constants, as
 * DOMAIN.md says of every rate, limit and time: over real HTTP, on SQLite and PostgreSQL, with a pinned clock
 * (Wednesday 2025-03-12 10:00 Shanghai, always-open), a changed setting changes what the app is told and what
 * the station does:
 * - fund allocation: the daily type's management fee rate and the margin limits show in getFundsTypeList.do
 *   and getFundsSetting.do, the application's fee follows them and is charged at each close (an allocation
 *   keeps the rate it was made with);
 * - VIP picks: picks per day, sizes and the per-user cap of the day's allocations, the cap enforced;
 * - block trades: offers per day, discount, minimum size and window;
 * - funds: a fund's fees and smallest purchase;
 * - new shares: how far ahead newStockList.do lists, and (read when the station starts) the calendar's odds
 *   and per-user caps;
 * and the operator command line's market (stationMarket) is the station's, new-share listings included.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BlockTradeOffer, VipPick, VipPurchase } from '../../src/shared/api/dzvip';
import type {
  Allocation,
  AllocationSetting,
  AllocationType,
  FundProduct,
  FundTrade,
  SubAccount,
} from '../../src/shared/api/funds';
import type { NewIssue } from '../../src/shared/api/newshares';
import type { Page } from '../../src/shared/api/types';
import { DEFAULT_SETTINGS, type Settings } from '../../server/config';
import { calendarOf, stationMarket } from '../../server/products/new-share-calendar';
import { runOperatorCommand } from '../../server/cli/commands';
import { FixedClock } from '../../server/market/clock';
import {
  T0,
  api,
  data,
  dbTargets,
  failure,
  newRequestId,
  register,
  startStation,
  type ApiClient,
  type Registered,
  type TestStation,
} from './helpers/station';

type Station = TestStation<FixedClock>;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** 00:00 UTC after T0's day: the close of the first trading day in always-open mode. */
const FIRST_CLOSE = Date.UTC(2025, 2, 13);

describe.each(dbTargets)('product settings (%s)', (db) => {
  let station: Station;
  let client: ApiClient;
  let defaults: Settings['products'];

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
    defaults = structuredClone(station.config.settings.products);
  });
  afterAll(async () => station?.close());
  afterEach(async () => {
    station.config.settings.products = structuredClone(defaults);
    station.clock.set(T0);
    await station.assertLedger();
  });

  const products = () => station.config.settings.products;
  const grantVip = async (user: Registered) => {
    const known = await runOperatorCommand(
      station.app.station,
      'grant',
      [String(user.user.id), 'vip_picks', '--reason', 'VIP client'],
      () => undefined,
      'tester',
    );
    expect(known).toBe(true);
  };

  it('charges the daily management fee rate of the settings, published before applying', async () => {
    const user = await register(client);
    const daily = products().allocation.types.find((t) => t.code === 'days')!;
    expect(daily.dailyFeeRate).toBe(0.001); // DOMAIN.md: 0.1%/day by default
    daily.dailyFeeRate = 0.002;
    products().allocation.minMargin = 2_000;

    const types = data(await user.client.get<AllocationType[]>('/user/funds/getFundsTypeList.do'));
    expect(types.find((t) => t.code === 'days')).toMatchObject({ dailyFeeRate: 0.002 });
    const setting = data(await user.client.get<AllocationSetting>('/user/funds/getFundsSetting.do'));
    expect(setting).toMatchObject({ minMargin: 2_000, maxMargin: 1_000_000, marginStep: 100 });

    const below = failure(
      await user.client.withLang('en').post('/user/funds/addFundsApply.do', {
        typeCode: 'days',
        margin: 1_500,
        multiple: 5,
        days: 2,
        requestId: newRequestId(),
      }),
    );
    expect(below.code).toBe('BELOW_MINIMUM');
    expect(below.msg).toContain('2,000.00');

    const applied = data(
      await user.client.post<Allocation>('/user/funds/addFundsApply.do', {
        typeCode: 'days',
        margin: 10_000,
        multiple: 5,
        days: 2,
        requestId: newRequestId(),
      }),
    );
    expect(applied).toMatchObject({ allocated: 50_000, dailyFeeRate: 0.002, dailyFee: 100 });

    // Approved after the review delay; the first close charges 0.2% of the allocated funds.
    station.clock.set(T0 + station.config.reviewDelaySeconds * 1000);
    await station.app.engine.step();
    station.clock.set(FIRST_CLOSE + MINUTE);
    await station.app.engine.step();
    let sub = data(await user.client.get<SubAccount>('/user/funds/getUserSubaccount.do'));
    expect(sub.allocation).toMatchObject({ status: 'trading', feesCharged: 100 });
    expect(sub.cash).toBe(60_000 - 100);

    // A later change applies to later applications: this one keeps its rate to the end.
    daily.dailyFeeRate = 0.0005;
    station.clock.set(FIRST_CLOSE + DAY + MINUTE);
    await station.app.engine.step();
    sub = data(
      await user.client.get<SubAccount>('/user/funds/getUserSubaccount.do', { applyId: applied.id }),
    );
    expect(sub.allocation).toMatchObject({ status: 'expired', feesCharged: 200, returned: 10_000 - 200 });
  });

  it('generates the day’s VIP allocations with the settings’ sizes and per-user cap, and enforces the cap', async () => {
    // The day's allocations are stored the first time they are asked for: set before that.
    Object.assign(products().vip, {
      picksPerDay: 2,
      totalLotsChoices: [7],
      maxLotsPerUserChoices: [2],
      discountPercent: { min: 4, max: 4 },
    });
    const picks = data(await client.get<VipPick[]>('/api/stock/getVipList.do'));
    expect(picks).toHaveLength(2);
    for (const pick of picks) {
      expect(pick).toMatchObject({ totalLots: 7, maxLotsPerUser: 2, remainingLots: 7, status: 'open' });
    }

    const user = await register(client);
    await grantVip(user);
    const pick = picks[0]!;
    const buy = (lots: number) =>
      user.client
        .withLang('en')
        .post<VipPurchase>('/user/buyVipQc.do', { code: pick.code, lots, requestId: newRequestId() });
    expect(failure(await buy(3)).code).toBe('VALIDATION');
    expect(data(await buy(2))).toMatchObject({ code: pick.code, lots: 2, price: pick.price });
    const capped = failure(await buy(1));
    expect(capped.code).toBe('ABOVE_MAXIMUM');
    expect(capped.msg).toBe('Each user may take at most 2 lots; you can take 0 more');
    const after = data(await client.get<VipPick>('/api/stock/getVipByCode.do', { code: pick.code }));
    expect(after.soldLots).toBe(2);
  });

  it('offers the settings’ number of block trades, with their discount, minimum size and window', async () => {
    // Real calendars: in always-open mode every window is the whole simulated day.
    const station = await startStation({ db, env: { CLOCK_MODE: 'real' } });
    const client = api(station.url);
    const products = () => station.config.settings.products;
    try {
      const before = data(await client.get<BlockTradeOffer[]>('/api/stock/getDzList.do'));
      expect(before).toHaveLength(8);
      Object.assign(products().blockTrades, {
        offersPerDay: 3,
        discountPercent: { min: 5, max: 5 },
        minLotsChoices: [7],
        windows: [[600, 660]], // 10:00–11:00 Shanghai
      });
      const offers = data(await client.get<BlockTradeOffer[]>('/api/stock/getDzList.do'));
      // The same seeded order of stocks, fewer of them.
      expect(offers.map((o) => o.code)).toEqual(before.slice(0, 3).map((o) => o.code));
      for (const offer of offers) {
        expect(offer).toMatchObject({
          discount: 0.05,
          minLots: 7,
          opensAt: T0,
          closesAt: T0 + HOUR,
          status: 'open',
        });
      }

      const user = await register(client);
      const offer = offers[0]!;
      const buy = (lots: number) =>
        user.client.post('/user/buyStockDz.do', { code: offer.code, lots, requestId: newRequestId() });
      expect(failure(await buy(6)).code).toBe('BELOW_MINIMUM');
      expect(data(await buy(7))).toMatchObject({ code: offer.code, lots: 7, discount: 0.05 });
      station.clock.set(T0 + HOUR);
      expect(failure(await buy(7)).code).toBe('OUTSIDE_TRADING_HOURS');
      // No offers at all when the setting says none.
      products().blockTrades.offersPerDay = 0;
      expect(data(await client.get<BlockTradeOffer[]>('/api/stock/getDzList.do'))).toEqual([]);
    } finally {
      await station.close();
    }
  });

  it('sells funds with the settings’ fees and smallest purchase', async () => {
    products().funds.terms.byCode['110011'] = {
      purchaseFeeRate: 0.01,
      redeemFeeRate: 0.02,
      minPurchase: 100,
    };
    const fund = data(await client.get<FundProduct[]>('/api/fund/list.do')).find((f) => f.code === '110011')!;
    expect(fund).toMatchObject({ purchaseFeeRate: 0.01, redeemFeeRate: 0.02, minPurchase: 100 });

    const user = await register(client);
    const buy = (amount: number) =>
      user.client.post<FundTrade>('/user/fund/buy.do', { code: '110011', amount, requestId: newRequestId() });
    expect(failure(await buy(50)).code).toBe('BELOW_MINIMUM');
    const bought = data(await buy(10_000));
    expect(bought).toMatchObject({ amount: 10_000, fee: 100 });
    const sold = data(
      await user.client.post<FundTrade>('/user/fund/sell.do', {
        code: '110011',
        units: bought.units,
        requestId: newRequestId(),
      }),
    );
    const gross = Math.round(bought.units * fund.nav * 100);
    expect(sold.fee).toBe(Math.round(gross * 0.02) / 100);
  });

  it('lists new issues as far ahead as the settings say', async () => {
    const user = await register(client);
    const list = async () =>
      data(await user.client.get<Page<NewIssue>>('/user/newStockList.do', { pageSize: 100 })).list;
    const twoWeeks = await list();
    expect(twoWeeks.some((i) => i.subscribeOpensAt > T0)).toBe(true);
    expect(twoWeeks.every((i) => i.subscribeOpensAt <= T0 + 14 * DAY)).toBe(true);
    products().newShares.listAheadDays = 0;
    const none = await list();
    expect(none.every((i) => i.subscribeOpensAt <= T0)).toBe(true);
    expect(none.length).toBeLessThan(twoWeeks.length);
    products().newShares.listAheadDays = 30;
    expect((await list()).length).toBeGreaterThan(twoWeeks.length);
  });

  it('gives the operator command line the station’s market, new-share listings included', () => {
    const market = stationMarket(station.config, station.clock);
    const codes = market.instruments.map((i) => i.code);
    expect(codes).toEqual(station.app.market.instruments.map((i) => i.code));
    const issues = calendarOf(market).list;
    expect(issues.length).toBeGreaterThan(0);
    expect(codes).toEqual(expect.arrayContaining(issues.map((i) => i.code)));
  });
});

describe('the new-share calendar’s settings, read when the station starts', () => {
  it('makes every trading day a share issue, no bonds, with the per-user cap of the settings', async () => {
    const saved = structuredClone(DEFAULT_SETTINGS.products.newShares);
    // The operator's edit of the defaults (server/config.ts), in this test file's own module copy.
    Object.assign(DEFAULT_SETTINGS.products.newShares, {
      shareOdds: 1,
      bondOdds: 0,
      perUserCap: { min: 3, max: 3 },
    });
    let station: Station | null = null;
    try {
      station = await startStation({ db: 'sqlite' });
      // The calendar's own issues (always-open mode, the test default, adds one of its own each day).
      const issues = calendarOf(station.app.market).list.filter((i) => !i.alwaysOpen);
      expect(issues.length).toBeGreaterThan(50);
      expect(new Set(issues.map((i) => i.type))).toEqual(new Set(['share']));
      expect(new Set(issues.map((i) => i.subscribeDate)).size).toBe(issues.length);
      const user = await register(api(station.url));
      const listed = data(await user.client.get<Page<NewIssue>>('/user/newStockList.do', { pageSize: 100 }));
      expect(listed.total).toBeGreaterThan(0);
      expect(listed.list.every((i) => i.type === 'share' && i.perUserCap === 3)).toBe(true);
    } finally {
      Object.assign(DEFAULT_SETTINGS.products.newShares, saved);
      await station?.close();
    }
  });
});

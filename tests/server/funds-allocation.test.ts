/**
 * Funds and fund allocation over HTTP with a pinned clock (CLOCK_MODE=always-open: every UTC day
 * trades, its close is 00:00 UTC): fund products at a seeded daily NAV bought and redeemed through the
 * ledger; an allocation applied for (fee shown), reviewed after REVIEW_DELAY_S or by the operator, traded in
 * its sub-account, charged its daily management fee, warned and liquidated at its lines, and at expiry
 * closed and repaid. Every event happens once however often the engine steps; the ledger balances.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quoteAllocation } from '../../src/shared/allocation';
import type {
  Allocation,
  AllocationSetting,
  AllocationType,
  FundDetail,
  FundHoldings,
  FundProduct,
  FundTrade,
  SubAccount,
} from '../../src/shared/api/funds';
import type { Page, Position, UserMessagePage } from '../../src/shared/api/types';
import {
  decideAllocationByOperator,
  endLiquidatedAllocation,
  runDueAllocationEvents,
} from '../../server/products/fund-allocation';
import { createEngine } from '../../server/trading';
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
  type TestStation,
} from './helpers/station';
import { accountOf } from './helpers/wallet';

type Station = TestStation<FixedClock>;
const START = 1_000_000_00;
const DAY = 86_400_000;
const MINUTE = 60_000;
/** 00:00 UTC after T0's day: the close of the first trading day in always-open mode. */
const FIRST_CLOSE = Date.UTC(2025, 2, 13);

async function ledgerOf(station: Station, userId: number, accountId?: number) {
  return station.app.db
    .selectFrom('ledger_entries')
    .selectAll()
    .where('user_id', '=', userId)
    .$if(accountId !== undefined, (q) => q.where('account_id', '=', accountId!))
    .orderBy('id')
    .execute();
}

async function subAccountRow(station: Station, userId: number) {
  return station.app.db
    .selectFrom('accounts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('type', 'not in', ['main', 'index', 'newstock', 'hk', 'us'])
    .executeTakeFirst();
}

describe.each(dbTargets)('funds and fund allocation (%s)', (db) => {
  let station: Station;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('lists fund products with a seeded daily NAV and its history', async () => {
    const funds = data(await client.get<FundProduct[]>('/api/fund/list.do'));
    expect(funds.map((f) => f.code)).toEqual(['110020', '110011', '161725', '000171', '003003']);
    expect(funds.every((f) => f.navDate === '2025-03-12' && f.nav > 0)).toBe(true);
    expect(data(await client.get<FundProduct[]>('/api/fund/list.do'))).toEqual(funds);
    const bonds = data(await client.get<FundProduct[]>('/api/fund/list.do', { type: 'bond' }));
    expect(bonds.map((f) => f.code)).toEqual(['000171']);
    const detail = data(await client.get<FundDetail>('/api/fund/detail.do', { code: '110020', days: 30 }));
    expect(detail.history).toHaveLength(30);
    expect(detail.history.at(-1)).toEqual([Date.UTC(2025, 2, 12), detail.fund.nav]);
    expect(detail.fund.dayChangePct).toBeCloseTo(
      detail.history.at(-1)![1] / detail.history.at(-2)![1] - 1,
      5,
    );
    // The next day has the next NAV; the day before keeps its own.
    station.clock.advance(DAY);
    const next = data(await client.get<FundDetail>('/api/fund/detail.do', { code: '110020', days: 31 }));
    expect(next.history.slice(0, 30)).toEqual(detail.history);
    station.clock.set(T0);
    expect(failure(await client.get('/api/fund/detail.do', { code: '999999' })).code).toBe('NOT_FOUND');
    expect(failure(await client.get('/api/fund/detail.do', { code: "1' or 1=1" })).code).toBe('VALIDATION');
  });

  it("buys and redeems a fund at the day's NAV through the ledger", async () => {
    const user = await register(client);
    const fund = data(await client.get<FundDetail>('/api/fund/detail.do', { code: '110011' })).fund;
    const requestId = newRequestId();
    const bought = data(
      await user.client.post<FundTrade>('/user/fund/buy.do', { code: '110011', amount: 10_000, requestId }),
    );
    const fee = Math.round(1_000_000 * fund.purchaseFeeRate) / 100;
    expect(bought).toMatchObject({ side: 'buy', nav: fund.nav, amount: 10_000, fee });
    expect(bought.units).toBe(Math.floor(((10_000 - fee) / fund.nav) * 100) / 100);
    // The same requestId: the same trade, nothing more.
    expect(
      data(
        await user.client.post<FundTrade>('/user/fund/buy.do', { code: '110011', amount: 10_000, requestId }),
      ),
    ).toEqual(bought);
    expect((await accountOf(station, user.user.id)).balance).toBe(START - 1_000_000);

    const holdings = data(await user.client.get<FundHoldings>('/user/fund/holdings.do'));
    expect(holdings.holdings).toMatchObject([{ code: '110011', units: bought.units, cost: 10_000 }]);

    const below = failure(
      await user.client.post('/user/fund/buy.do', { code: '110011', amount: 5, requestId: newRequestId() }),
    );
    expect(below.code).toBe('BELOW_MINIMUM');
    const tooMany = failure(
      await user.client.post('/user/fund/sell.do', {
        code: '110011',
        units: bought.units + 1,
        requestId: newRequestId(),
      }),
    );
    expect(tooMany.code).toBe('ABOVE_MAXIMUM');
    for (const amount of ['abc', '-1', '10.001', 'NaN']) {
      const bad = failure(
        await user.client.post('/user/fund/buy.do', { code: '110011', amount, requestId: newRequestId() }),
      );
      expect(bad.code, amount).toBe('VALIDATION');
    }

    const units = Math.floor(bought.units * 50) / 100;
    const sold = data(
      await user.client.post<FundTrade>('/user/fund/sell.do', {
        code: '110011',
        units,
        requestId: newRequestId(),
      }),
    );
    const gross = Math.round(units * fund.nav * 100);
    // Redeemed the day it was bought: the short-holding tier (under 7 days, at least 1.5%).
    const redeemFee = Math.round(gross * Math.max(fund.redeemFeeRate, 0.015));
    expect(sold).toMatchObject({
      side: 'sell',
      units,
      amount: (gross - redeemFee) / 100,
      fee: redeemFee / 100,
    });
    expect((await accountOf(station, user.user.id)).balance).toBe(START - 1_000_000 + gross - redeemFee);
    const after = data(await user.client.get<FundHoldings>('/user/fund/holdings.do'));
    expect(after.holdings[0]!.units).toBeCloseTo(bought.units - units, 2);
    const trades = data(await user.client.get<Page<FundTrade>>('/user/fund/trades.do'));
    expect(trades.list.map((t) => t.side)).toEqual(['sell', 'buy']);
    await station.assertLedger();
  });

  it('applies (fee shown), reviews after the delay, trades in the sub-account, charges daily and repays at expiry', async () => {
    const user = await register(client);
    const setting = data(await user.client.get<AllocationSetting>('/user/funds/getFundsSetting.do'));
    expect(setting).toMatchObject({
      minMargin: 1000,
      marginStep: 100,
      warningLine: 1.1,
      liquidationLine: 1.05,
    });
    const types = data(await user.client.get<AllocationType[]>('/user/funds/getFundsTypeList.do'));
    const daysType = types.find((t) => t.code === 'days')!;
    expect(daysType).toMatchObject({ minDays: 2, dailyFeeRate: 0.001 });

    // What the apply screen shows before confirming, computed by the shared module.
    const quote = quoteAllocation({
      margin: 1_000_000,
      multiple: 5,
      days: 2,
      dailyFeeRate: daysType.dailyFeeRate,
      warningLine: setting.warningLine,
      liquidationLine: setting.liquidationLine,
    });
    expect(quote).toMatchObject({ allocated: 5_000_000, dailyFee: 5_000, totalFee: 10_000 });

    const bad = failure(
      await user.client.post('/user/funds/addFundsApply.do', {
        typeCode: 'days',
        margin: 10_050,
        multiple: 5,
        days: 2,
        requestId: newRequestId(),
      }),
    );
    expect(bad).toMatchObject({ code: 'VALIDATION', fields: { margin: expect.any(String) } });
    const badDays = failure(
      await user.client.post('/user/funds/addFundsApply.do', {
        typeCode: 'days',
        margin: 10_000,
        multiple: 7,
        days: 31,
        requestId: newRequestId(),
      }),
    );
    expect(badDays).toMatchObject({
      code: 'VALIDATION',
      fields: { multiple: expect.any(String), days: expect.any(String) },
    });

    const requestId = newRequestId();
    const applied = data(
      await user.client.post<Allocation>('/user/funds/addFundsApply.do', {
        typeCode: 'days',
        margin: 10_000,
        multiple: 5,
        days: 2,
        requestId,
      }),
    );
    expect(applied).toMatchObject({
      status: 'review',
      margin: 10_000,
      allocated: 50_000,
      dailyFee: 50,
      warningValue: 55_000,
      liquidationValue: 52_500,
    });
    expect(
      data(
        await user.client.post<Allocation>('/user/funds/addFundsApply.do', {
          typeCode: 'days',
          margin: 10_000,
          multiple: 5,
          days: 2,
          requestId,
        }),
      ),
    ).toEqual(applied);
    expect((await accountOf(station, user.user.id)).balance).toBe(START - 1_000_000);
    const second = failure(
      await user.client.post('/user/funds/addFundsApply.do', {
        typeCode: 'days',
        margin: 10_000,
        multiple: 2,
        days: 2,
        requestId: newRequestId(),
      }),
    );
    expect(second.code).toBe('ALREADY_DONE');

    // Under review until REVIEW_DELAY_S has passed.
    const delay = station.config.reviewDelaySeconds * 1000;
    station.clock.set(T0 + delay - 1);
    await station.app.engine.step();
    let sub = data(await user.client.get<SubAccount>('/user/funds/getUserSubaccount.do'));
    expect(sub.allocation.status).toBe('review');
    station.clock.set(T0 + delay);
    await station.app.engine.step();
    await station.app.engine.step();
    sub = data(await user.client.get<SubAccount>('/user/funds/getUserSubaccount.do'));
    expect(sub.allocation).toMatchObject({
      status: 'trading',
      startedAt: T0 + delay,
      expiresAt: FIRST_CLOSE + DAY,
    });
    expect(sub).toMatchObject({ cash: 60_000, totalAssets: 60_000, pnl: 0, riskRatio: 1.2 });

    // Trading: A-shares only, into the sub-account, not the main account's lists.
    const hk = failure(
      await user.client.post('/user/funds/buyFunds.do', {
        applyId: applied.id,
        code: '00700',
        lots: 1,
        requestId: newRequestId(),
      }),
    );
    expect(hk).toMatchObject({ code: 'VALIDATION', fields: { code: expect.any(String) } });
    const position = data(
      await user.client.post<Position>('/user/funds/buyFunds.do', {
        applyId: applied.id,
        code: '600000',
        lots: 2,
        requestId: newRequestId(),
      }),
    );
    expect(position).toMatchObject({ code: '600000', lots: 2, leverage: 1 });
    const cost = Math.round(position.openPrice * 200 * 100) + Math.round(position.buyFee * 100);
    sub = data(
      await user.client.get<SubAccount>('/user/funds/getUserSubaccount.do', { applyId: applied.id }),
    );
    expect(Math.round(sub.cash * 100)).toBe(6_000_000 - cost);
    expect(sub.positions.map((p) => p.id)).toEqual([position.id]);
    // Net P&L in the sub-account too (DOMAIN.md "P&L"): its position's and its own, at the same prices.
    const [held] = sub.positions;
    expect(held!.fees).toBe(position.buyFee);
    expect(Math.round(held!.pnl * 100)).toBe(Math.round(held!.pricePnl * 100) - Math.round(held!.fees * 100));
    expect(Math.round(sub.pnl * 100)).toBe(Math.round(held!.pnl * 100));
    const own = data(await user.client.get<Page<Position>>('/user/position/list.do', { state: 'open' }));
    expect(own.total).toBe(0);
    const listed = data(
      await user.client.get<Page<Position>>('/user/funds/fundsList.do', {
        applyId: applied.id,
        state: 'open',
      }),
    );
    expect(listed.list.map((p) => p.id)).toEqual([position.id]);
    expect((await accountOf(station, user.user.id)).balance).toBe(START - 1_000_000);

    // The first close: one day's fee, however often the engine steps.
    station.clock.set(FIRST_CLOSE + 60_000);
    await station.app.engine.step();
    await station.app.engine.step();
    expect(await runDueAllocationEvents(station.app.station, station.clock.now())).toMatchObject({
      approved: 0,
      feeDays: 0,
      expired: 0,
    });
    const account = (await subAccountRow(station, user.user.id))!;
    const fees = (await ledgerOf(station, user.user.id, account.id)).filter(
      (e) => e.type === 'management_fee',
    );
    expect(fees.map((e) => [e.amount, e.time])).toEqual([[-5_000, FIRST_CLOSE]]);

    // Day 2 (T+1 passed): sell one lot in the sub-account.
    const sold = data(
      await user.client.post<Position>('/user/funds/sellFunds.do', {
        applyId: applied.id,
        positionId: position.id,
        lots: 1,
        requestId: newRequestId(),
      }),
    );
    // A partial sale answers what remains open.
    expect(sold).toMatchObject({ id: position.id, lots: 1, closedAt: null });

    // Expiry: the second close charges day 2, closes the rest at the day's last price and repays.
    station.clock.set(FIRST_CLOSE + DAY + 5 * 60_000);
    // Past the last close the period is over, even before the engine's step has settled it: no sale at the
    // next day's price, through sellFunds.do or the ordinary sell.do (one guard), no new buy (the market is
    // open again in always-open mode).
    for (const late of [
      await user.client.post('/user/funds/sellFunds.do', {
        applyId: applied.id,
        positionId: position.id,
        requestId: newRequestId(),
      }),
      await user.client.post('/user/sell.do', { positionId: position.id, requestId: newRequestId() }),
      await user.client.post('/user/funds/buyFunds.do', {
        applyId: applied.id,
        code: '600000',
        lots: 1,
        requestId: newRequestId(),
      }),
    ]) {
      expect(failure(late)).toMatchObject({
        code: 'ALREADY_DONE',
        msg: '该配资不在操盘中',
      });
    }
    await station.app.engine.step();
    await station.app.engine.step();
    sub = data(
      await user.client.get<SubAccount>('/user/funds/getUserSubaccount.do', { applyId: applied.id }),
    );
    expect(sub.allocation).toMatchObject({ status: 'expired', endReason: 'expiry', feesCharged: 100 });
    expect(sub.allocation.endedAt).toBe(FIRST_CLOSE + DAY);
    const closed = data(
      await user.client.get<Page<Position>>('/user/funds/fundsList.do', {
        applyId: applied.id,
        state: 'closed',
      }),
    );
    expect(closed.list.map((p) => p.closeReason).sort()).toEqual(['expiry', 'user']);
    const subEntries = await ledgerOf(station, user.user.id, account.id);
    expect(subEntries.filter((e) => e.type === 'allocation_repay').map((e) => e.amount)).toEqual([
      -5_000_000,
    ]);
    const after = await subAccountRow(station, user.user.id);
    expect(after!.balance).toBe(0);
    const returned = Math.round(sub.allocation.returned! * 100);
    expect((await accountOf(station, user.user.id)).balance).toBe(START - 1_000_000 + returned);
    // Returned = margin + trading result − fees: the sub-account's entries other than the repayment sum to it.
    const result = subEntries
      .filter((e) => !['allocation_repay', 'allocation_return', 'allocation_credit'].includes(e.type))
      .reduce((sum, e) => sum + e.amount, 0);
    expect(returned).toBe(result);
    expect(sub.pnl).toBeCloseTo((returned - 1_000_000) / 100, 2);

    // Nothing is done twice; a sale after the end is refused.
    const before = (await ledgerOf(station, user.user.id)).length;
    station.clock.advance(3 * DAY);
    await station.app.engine.step();
    expect((await ledgerOf(station, user.user.id)).length).toBe(before);
    const late = failure(
      await user.client.post('/user/funds/buyFunds.do', {
        applyId: applied.id,
        code: '600000',
        lots: 1,
        requestId: newRequestId(),
      }),
    );
    expect(late.code).toBe('ALREADY_DONE');
    const list = data(await user.client.get<Page<Allocation>>('/user/funds/getUserApplyList.do'));
    expect(list.list.map((a) => a.status)).toEqual(['expired']);
    const messages = data(
      await user.client.withLang('en').get<UserMessagePage>('/user/cash/getMessagelist.do'),
    );
    expect(messages.list.filter((m) => m.kind === 'allocation').map((m) => m.title)).toEqual([
      'Allocation expired',
      'Allocation approved',
    ]);
    await station.assertLedger();
    station.clock.set(T0);
  });

  it('offers only multiples that start strictly above the warning line, and refuses the others', async () => {
    const { settings } = station.config;
    const user = await register(client);
    const types = data(await user.client.get<AllocationType[]>('/user/funds/getFundsTypeList.do'));
    expect(types.length).toBeGreaterThan(0);
    for (const type of types) {
      for (const multiple of type.multiples) {
        // R at the start = (margin + allocated) ÷ allocated, from the figures the apply screen shows.
        const quote = quoteAllocation({
          margin: 1_000_000,
          multiple,
          days: type.minDays,
          dailyFeeRate: type.dailyFeeRate,
          warningLine: settings.warningLine,
          liquidationLine: settings.liquidationLine,
        });
        expect(quote.tradingFunds / quote.allocated, `${type.code} ×${multiple}`).toBeGreaterThan(
          settings.warningLine,
        );
      }
    }
    // An operator's list with 10× at the default 1.10 line: 10× would start on the line, so it is not offered.
    const days = settings.products.allocation.types.find((t) => t.code === 'days')!;
    const multiples = days.multiples;
    days.multiples = [...multiples, 10];
    try {
      const offered = data(await user.client.get<AllocationType[]>('/user/funds/getFundsTypeList.do'));
      expect(offered.find((t) => t.code === 'days')!.multiples).toEqual(multiples);
      const refused = failure(
        await user.client.post('/user/funds/addFundsApply.do', {
          typeCode: 'days',
          margin: 10_000,
          multiple: 10,
          days: 2,
          requestId: newRequestId(),
        }),
      );
      expect(refused).toMatchObject({ code: 'VALIDATION', fields: { multiple: expect.any(String) } });
    } finally {
      days.multiples = multiples;
    }
  });

  it('warns below the warning line and liquidates at the liquidation line (daily fees lower R)', async () => {
    const { settings } = station.config;
    const lines = { warning: settings.warningLine, liquidation: settings.liquidationLine };
    // An operator's setting, stored with the application: R starts at 1.2 (multiple 5), just above the
    // warning line as every multiple offered must, and each day's fee of 0.1% of the allocated funds lowers
    // it by 0.001.
    settings.warningLine = 1.199;
    settings.liquidationLine = 1.195;
    try {
      station.clock.set(T0);
      const user = await register(client);
      const applied = data(
        await user.client.post<Allocation>('/user/funds/addFundsApply.do', {
          typeCode: 'days',
          margin: 10_000,
          multiple: 5,
          days: 10,
          requestId: newRequestId(),
        }),
      );
      station.clock.set(T0 + station.config.reviewDelaySeconds * 1000);
      await station.app.engine.step();
      const position = data(
        await user.client.post<Position>('/user/funds/buyFunds.do', {
          applyId: applied.id,
          code: '600000',
          lots: 1,
          requestId: newRequestId(),
        }),
      );
      expect(position.lots).toBe(1);
      const read = async () =>
        data(await user.client.get<SubAccount>('/user/funds/getUserSubaccount.do', { applyId: applied.id }));
      const warnings = async () =>
        data(
          await user.client.withLang('en').get<UserMessagePage>('/user/cash/getMessagelist.do'),
        ).list.filter((m) => m.title === 'Allocation risk warning').length;

      // Each day one more fee; the warning comes once per episode.
      let day = 1;
      let sub = await read();
      while (sub.allocation.status === 'trading' && day <= 10) {
        station.clock.set(FIRST_CLOSE + (day - 1) * DAY + 10 * 60_000);
        await station.app.engine.step();
        await station.app.engine.step();
        sub = await read();
        day++;
      }
      expect(await warnings()).toBe(1);
      expect(sub.allocation).toMatchObject({ status: 'ended', endReason: 'liquidation' });
      // The line: liquidated on the first day R was at or below 1.195, not before.
      const feeDays = Math.round(sub.allocation.feesCharged / 50);
      expect(feeDays).toBeLessThan(10);
      const closed = data(
        await user.client.get<Page<Position>>('/user/funds/fundsList.do', {
          applyId: applied.id,
          state: 'closed',
        }),
      );
      expect(closed.list).toMatchObject([{ id: position.id, closeReason: 'liquidation' }]);
      expect((await subAccountRow(station, user.user.id))!.balance).toBe(0);
      await station.assertLedger();
    } finally {
      settings.warningLine = lines.warning;
      settings.liquidationLine = lines.liquidation;
      station.clock.set(T0);
    }
  });

  it('lets the operator reject (margin back) or approve first; the reviewer then leaves it alone; the user may end early', async () => {
    station.clock.set(T0);
    const user = await register(client);
    const apply = async () =>
      data(
        await user.client.post<Allocation>('/user/funds/addFundsApply.do', {
          typeCode: 'months',
          margin: 2_000,
          multiple: 3,
          days: 20,
          requestId: newRequestId(),
        }),
      );
    const first = await apply();
    const rejected = await decideAllocationByOperator(station.app.station, first.id, 'reject', 'ops', 'test');
    expect(rejected).toMatchObject({
      status: 'ended',
      endReason: 'rejected',
      returned: 2_000,
      rejectReason: 'test',
    });
    await expect(
      decideAllocationByOperator(station.app.station, first.id, 'approve', 'ops', 'again'),
    ).rejects.toMatchObject({ code: 'ALREADY_DONE' });
    expect((await accountOf(station, user.user.id)).balance).toBe(START);

    const second = await apply();
    const approved = await decideAllocationByOperator(station.app.station, second.id, 'approve', 'ops', 'ok');
    expect(approved).toMatchObject({ status: 'trading', startedAt: T0 });
    station.clock.advance(station.config.reviewDelaySeconds * 1000);
    await station.app.engine.step();
    const sub = data(await user.client.get<SubAccount>('/user/funds/getUserSubaccount.do'));
    expect(sub.cash).toBe(8_000);

    const ended = data(
      await user.client.post<Allocation>('/user/funds/endFundsApply.do', {
        applyId: second.id,
        requestId: newRequestId(),
      }),
    );
    expect(ended).toMatchObject({ status: 'ended', endReason: 'user', returned: 2_000 });
    expect((await accountOf(station, user.user.id)).balance).toBe(START);
    const other = await register(client);
    expect(
      failure(await other.client.get('/user/funds/getUserSubaccount.do', { applyId: second.id })).code,
    ).toBe('NOT_FOUND');
    expect(data(await other.client.get<SubAccount | null>('/user/funds/getUserSubaccount.do'))).toBeNull();
    await station.assertLedger();
  });
  it('sells in a second allocation, which trades in the sub-account an ended first one used', async () => {
    station.clock.set(T0);
    const user = await register(client);
    const apply = async () =>
      data(
        await user.client.post<Allocation>('/user/funds/addFundsApply.do', {
          typeCode: 'months',
          margin: 2_000,
          multiple: 3,
          days: 20,
          requestId: newRequestId(),
        }),
      );
    const first = await apply();
    await decideAllocationByOperator(station.app.station, first.id, 'approve', 'ops', 'ok');
    data(
      await user.client.post<Allocation>('/user/funds/endFundsApply.do', {
        applyId: first.id,
        requestId: newRequestId(),
      }),
    );
    const second = await apply();
    await decideAllocationByOperator(station.app.station, second.id, 'approve', 'ops', 'ok');
    const position = data(
      await user.client.post<Position>('/user/funds/buyFunds.do', {
        applyId: second.id,
        code: '600000',
        lots: 1,
        requestId: newRequestId(),
      }),
    );
    // T+1 passed: the second allocation trades, whatever became of the first in the same sub-account.
    station.clock.set(FIRST_CLOSE + 60_000);
    const sold = data(
      await user.client.post<Position>('/user/funds/sellFunds.do', {
        applyId: second.id,
        positionId: position.id,
        requestId: newRequestId(),
      }),
    );
    expect(sold).toMatchObject({ id: position.id, closedAt: expect.any(Number) });
    await station.assertLedger();
  });

  it('refuses a paper-account reset while money is out in a fund or an allocation, which would pay it twice', async () => {
    const user = await register(client);
    const reset = () =>
      user.client.withLang('en').post('/user/account/reset.do', { requestId: newRequestId() });
    const blocked = {
      code: 'RESET_BLOCKED',
      msg: 'You still hold funds, a fund allocation, paid new shares awaiting listing or a pending withdrawal: settle them before resetting the play account',
    };
    // A fund bought: the reset would restore the balance, and the redemption would pay the fund out again.
    const bought = data(
      await user.client.post<FundTrade>('/user/fund/buy.do', {
        code: '110011',
        amount: 900_000,
        requestId: newRequestId(),
      }),
    );
    expect(failure(await reset())).toMatchObject(blocked);
    data(
      await user.client.post('/user/fund/sell.do', {
        code: '110011',
        units: bought.units,
        requestId: newRequestId(),
      }),
    );
    // An allocation under review holds its margin: the same.
    data(
      await user.client.post('/user/funds/addFundsApply.do', {
        typeCode: 'days',
        margin: 10_000,
        multiple: 2,
        days: 2,
        requestId: newRequestId(),
      }),
    );
    expect(failure(await reset())).toMatchObject(blocked);
    await station.assertLedger();
  });
});

describe.each(dbTargets)("the engine after an allocation's last close (%s)", (db) => {
  it('fires no stop on a sub-account position at a later price: the expiry closes it at the last close', async () => {
    const station = await startStation({ db });
    try {
      const { market } = station.app.station;
      const code = '600000';
      const instrument = market.get(code);
      const priceAt = (t: number) => market.quote(instrument, t).price;
      const user = await register(api(station.url));
      const applied = data(
        await user.client.post<Allocation>('/user/funds/addFundsApply.do', {
          typeCode: 'days',
          margin: 10_000,
          multiple: 5,
          days: 2,
          requestId: newRequestId(),
        }),
      );
      station.clock.set(T0 + station.config.reviewDelaySeconds * 1000);
      await station.app.engine.step();
      const position = data(
        await user.client.post<Position>('/user/funds/buyFunds.do', {
          applyId: applied.id,
          code,
          lots: 1,
          requestId: newRequestId(),
        }),
      );
      const lastClose = FIRST_CLOSE + DAY;
      const sub = data(
        await user.client.get<SubAccount>('/user/funds/getUserSubaccount.do', { applyId: applied.id }),
      );
      expect(sub.allocation).toMatchObject({ status: 'trading', expiresAt: lastClose });

      // Just before the last close (T+1 passed), the engine up to date: a stop beyond every price until the
      // last close, crossed by a price in the hours after it.
      const setAt = lastClose - 2 * MINUTE;
      station.clock.set(setAt);
      await station.app.engine.step();
      const period: number[] = [];
      for (let t = setAt; t <= lastClose; t += MINUTE) period.push(priceAt(t));
      const high = Math.max(...period);
      const low = Math.min(...period);
      let crossedAt = 0;
      for (let t = lastClose + MINUTE; t <= lastClose + 6 * 60 * MINUTE && crossedAt === 0; t += MINUTE) {
        const open = market.status(instrument, t) === 'trading';
        if (open && (priceAt(t) >= high + 0.02 || priceAt(t) <= low - 0.02)) crossedAt = t;
      }
      expect(crossedAt, 'a price after the last close beyond the period’s').toBeGreaterThan(0);
      const up = priceAt(crossedAt) > high;
      const stop = Math.round((up ? high + 0.01 : low - 0.01) * 100) / 100;
      data(
        await user.client.post('/user/position/setStops.do', {
          positionId: position.id,
          ...(up ? { stopProfit: stop } : { stopLoss: stop }),
          requestId: newRequestId(),
        }),
      );

      // Past the crossing, the engine's own timer runs before the allocation events' (separate jobs): the
      // period is over, so the stop does not fill at the later price.
      station.clock.set(crossedAt + 5 * MINUTE);
      const engineAlone = createEngine(station.app.station, {
        endLiquidatedAllocation: (id, t) => endLiquidatedAllocation(station.app.station, id, t),
      });
      expect(await engineAlone.step()).toMatchObject({ stops: 0, liquidations: 0 });
      const open = data(
        await user.client.get<Page<Position>>('/user/funds/fundsList.do', {
          applyId: applied.id,
          state: 'open',
        }),
      );
      expect(open.list.map((p) => p.id)).toEqual([position.id]);

      // The expiry then closes it at the day's last price (the minute before the close).
      await station.app.engine.step();
      const closed = data(
        await user.client.get<Page<Position>>('/user/funds/fundsList.do', {
          applyId: applied.id,
          state: 'closed',
        }),
      );
      expect(closed.list).toMatchObject([{ id: position.id, closeReason: 'expiry' }]);
      expect(closed.list[0]!.closePrice).toBeCloseTo(priceAt(lastClose - 1), 2);
      await station.assertLedger();
    } finally {
      await station.close();
    }
  });

  it('leaves an allocation with no position past its last close to the expiry, even at its liquidation line', async () => {
    const station = await startStation({ db });
    try {
      // An operator's lines, stored with the application: R starts at 1.2 (multiple 5), and day 1's fee
      // (0.1% of the allocated funds) brings it to 1.199, at or below the liquidation line.
      const { settings } = station.config;
      settings.warningLine = 1.1995;
      settings.liquidationLine = 1.1992;
      const user = await register(api(station.url));
      const applied = data(
        await user.client.post<Allocation>('/user/funds/addFundsApply.do', {
          typeCode: 'days',
          margin: 10_000,
          multiple: 5,
          days: 2,
          requestId: newRequestId(),
        }),
      );
      station.clock.set(T0 + station.config.reviewDelaySeconds * 1000);
      await station.app.engine.step();
      const read = async () =>
        data(await user.client.get<SubAccount>('/user/funds/getUserSubaccount.do', { applyId: applied.id }))
          .allocation;
      const lastClose = FIRST_CLOSE + DAY;
      expect(await read()).toMatchObject({ status: 'trading', expiresAt: lastClose });

      // Day 1's fee is charged, and the engine does not step again before the last close (a station down
      // over the last day). After it, the engine's own timer runs before the allocation events' (separate
      // jobs): the period is over, so its risk step neither warns nor ends the allocation as a liquidation.
      expect(await runDueAllocationEvents(station.app.station, FIRST_CLOSE + MINUTE)).toMatchObject({
        feeDays: 1,
        expired: 0,
      });
      station.clock.set(lastClose + 5 * MINUTE);
      const engineAlone = createEngine(station.app.station, {
        endLiquidatedAllocation: (id, t) => endLiquidatedAllocation(station.app.station, id, t),
      });
      expect(await engineAlone.step()).toMatchObject({ warnings: 0, liquidations: 0 });
      expect(await read()).toMatchObject({ status: 'trading' });
      // Nor does the settlement itself, for a risk step that read the allocation before the close.
      expect(await endLiquidatedAllocation(station.app.station, applied.id, station.clock.now())).toBe(false);

      // The expiry then charges day 2 and settles it as expired at the last close.
      await station.app.engine.step();
      expect(await read()).toMatchObject({
        status: 'expired',
        endReason: 'expiry',
        endedAt: lastClose,
        feesCharged: 100,
        returned: 9_900,
      });
      const messages = data(
        await user.client.withLang('en').get<UserMessagePage>('/user/cash/getMessagelist.do'),
      );
      expect(messages.list.filter((m) => m.kind === 'allocation').map((m) => m.title)).toEqual([
        'Allocation expired',
        'Allocation approved',
      ]);
      await station.assertLedger();
    } finally {
      await station.close();
    }
  });
});

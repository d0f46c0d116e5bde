/**
 * Trading inside a competition and its ranking, on a pinned clock (always-open market): the trading calls
 * with competitionId act on the competition accounts under the competition's limits (markets, leverage,
 * shorts) by the same rule book, only while it runs; the ranking job's snapshot after the price moves
 * matches the accounts' figures in yuan; at the end the ranking freezes at the end's prices; daily equity
 * points; and the ledger balances with competition accounts included.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Order, Page, Position, User } from '../../src/shared/api/types';
import type {
  Competition,
  CompetitionAccount,
  EquityPoint,
  Leaderboard,
} from '../../src/shared/api/competitions';
import { FixedClock } from '../../server/market/clock';
import { compareStandings, type Standing } from '../../server/competitions/competition-rules';
import { toMinor } from '../../src/shared/money';
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

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const START = T0 + HOUR;
const END = T0 + 2 * DAY;

describe('the ranking order', () => {
  const standing = (userId: number, totalCny: number, reachedAt: number, joinedAt = 0): Standing => ({
    userId,
    nickname: String(userId),
    totalCny,
    baseCny: 100,
    reachedAt,
    joinedAt,
  });
  it('puts the larger total first, and on a tie whoever reached the figure first', () => {
    const ranked = [standing(1, 100, 50, 1), standing(2, 120, 90, 2), standing(3, 100, 10, 3)].sort(
      compareStandings,
    );
    expect(ranked.map((s) => s.userId)).toEqual([2, 3, 1]);
  });
});

describe.each(dbTargets)('competition trading and ranking (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;
  let creator: Registered;
  let trader: Registered;
  let idle: Registered;
  let competition: Competition;

  const buy = (user: Registered, body: Record<string, unknown>) =>
    user.client.withLang('en').post<Position>('/user/buy.do', {
      lots: 10,
      leverage: 2,
      competitionId: competition.id,
      requestId: newRequestId(),
      ...body,
    });
  const board = async () =>
    data(await client.get<Leaderboard>('/api/competition/leaderboard.do', { id: competition.id }));
  /** The entrant's total assets in yuan (minor units) from the accounts' figures at the station's rates. */
  const totalCny = async (user: Registered, at: number) => {
    const accounts = data(
      await user.client.get<CompetitionAccount[]>('/user/competition/accounts.do', { id: competition.id }),
    );
    const { cnyPer } = station.app.market.exchangeRates(at);
    return Math.round(accounts.reduce((sum, a) => sum + toMinor(a.totalAssets) * cnyPer[a.currency], 0));
  };

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
    [creator, trader, idle] = [await register(client), await register(client), await register(client)];
    competition = data(
      await creator.client.post<Competition>('/user/competition/create.do', {
        name: 'Index and A-share cup',
        startAt: START,
        endAt: END,
        startingCash: 1_000_000,
        startingCashUsd: 100_000,
        markets: 'a,us,index',
        maxLeverage: 2,
        allowShort: false,
        visibility: 'public',
        requestId: newRequestId(),
      }),
    );
    for (const [user, nickname] of [
      [trader, 'Trader'],
      [idle, 'Idle'],
    ] as const) {
      data(
        await user.client.post('/user/competition/join.do', {
          id: competition.id,
          nickname,
          requestId: newRequestId(),
        }),
      );
    }
  });
  afterAll(async () => station?.close());
  afterEach(async () => station.assertLedger());

  it('refuses a competition trade before the start, and one by a user who did not join', async () => {
    station.clock.set(T0);
    const early = failure(await buy(trader, { code: '600036' }));
    expect(early).toMatchObject({
      code: 'COMPETITION_CLOSED',
      msg: 'The competition has not started yet: trading opens at its start',
    });
    station.clock.set(START + MINUTE);
    const outsider = failure(await buy(creator, { code: '600036' }));
    expect(outsider).toMatchObject({
      code: 'NO_PERMISSION',
      msg: 'Join the competition first to trade in it',
    });
  });

  it("enforces the competition's markets, leverage and shorts with their messages, writing nothing", async () => {
    station.clock.set(START + MINUTE);
    const before = await station.counts();
    const market = failure(await buy(trader, { code: '00700', lots: 1 }));
    expect(market).toMatchObject({ code: 'VALIDATION', msg: 'This competition does not trade this market' });
    const leverage = failure(await buy(trader, { code: '600036', leverage: 5 }));
    expect(leverage).toMatchObject({
      code: 'VALIDATION',
      msg: 'This competition allows leverage of at most 2×',
      fields: { leverage: expect.any(String) },
    });
    const short = failure(
      await trader.client.withLang('en').post('/user/buyIndex.do', {
        code: 'sh000300',
        lots: 1,
        leverage: 2,
        direction: 'short',
        competitionId: competition.id,
        requestId: newRequestId(),
      }),
    );
    expect(short).toMatchObject({
      code: 'VALIDATION',
      msg: 'Short selling is not allowed in this competition',
    });
    // The same short outside the competition is the market's ordinary rule: allowed.
    expect(await station.counts()).toMatchObject({ positions: before.positions, ledger: before.ledger });
  });

  it("trades in the competition's accounts, never the user's own", async () => {
    station.clock.set(START + 2 * MINUTE);
    const ownBefore = data(await trader.client.get<User>('/user/getUserInfo.do')).accounts;
    const bought = data(await buy(trader, { code: '600036' }));
    const us = data(await buy(trader, { code: 'AAPL', lots: 50, leverage: 1 }));
    expect(bought).toMatchObject({ code: '600036', leverage: 2 });
    expect(data(await trader.client.get<User>('/user/getUserInfo.do')).accounts).toEqual(ownBefore);
    const inside = data(
      await trader.client.get<Page<Position>>('/user/position/list.do', {
        state: 'open',
        competitionId: competition.id,
      }),
    );
    expect(inside.list.map((p) => p.id).sort()).toEqual([bought.id, us.id].sort());
    const own = data(await trader.client.get<Page<Position>>('/user/position/list.do', { state: 'open' }));
    expect(own.total).toBe(0);
    const accounts = data(
      await trader.client.get<CompetitionAccount[]>('/user/competition/accounts.do', { id: competition.id }),
    );
    const cny = accounts.find((a) => a.currency === 'CNY')!;
    expect(cny.balance).toBeCloseTo(1_000_000 - bought.margin - bought.fees, 2);
  });

  it("places limit orders in the competition's accounts under its limits, listed with the competition", async () => {
    station.clock.set(START + 3 * MINUTE);
    // At the day's limit-down: a long limit order that waits (the engine does not run on a pinned clock).
    const { limitDown } = data(
      await client.get<{ limitDown: number }>('/api/stock/getSingleStock.do', { code: '600036' }),
    );
    const order = (body: Record<string, unknown>) =>
      trader.client.withLang('en').post<Order>('/user/addOrder.do', {
        code: '600036',
        lots: 1,
        leverage: 2,
        triggerPrice: limitDown,
        competitionId: competition.id,
        requestId: newRequestId(),
        ...body,
      });
    const over = failure(await order({ leverage: 3 }));
    expect(over.msg).toBe('This competition allows leverage of at most 2×');
    const hk = failure(await order({ code: '00700', triggerPrice: 100 }));
    expect(hk.msg).toBe('This competition does not trade this market');
    const placed = data(await order({}));
    expect(placed.status).toBe('pending');
    const inside = data(
      await trader.client.get<Page<Order>>('/user/order/list.do', { competitionId: competition.id }),
    );
    expect(inside.list.map((o) => o.id)).toEqual([placed.id]);
    const own = data(await trader.client.get<Page<Order>>('/user/order/list.do'));
    expect(own.total).toBe(0);
  });

  it('ranks by total assets in yuan after the prices move, from the stored snapshot', async () => {
    const at = START + 3 * HOUR;
    station.clock.set(at);
    expect(await station.app.competitionRanking.run()).toBeGreaterThanOrEqual(1);
    const ranking = await board();
    const expected = [
      { nickname: 'Trader', total: await totalCny(trader, at) },
      { nickname: 'Idle', total: await totalCny(idle, at) },
    ].sort((a, b) => b.total - a.total);
    expect(ranking).toMatchObject({ takenAt: at, frozen: false, total: 2 });
    expect(ranking.list.map((r) => [r.rank, r.nickname, toMinor(r.totalAssets)])).toEqual(
      expected.map((e, i) => [i + 1, e.nickname, e.total]),
    );
    // The prices did move: the trader's figure is not the idle entrant's starting cash.
    const idleRow = ranking.list.find((r) => r.nickname === 'Idle')!;
    const traderRow = ranking.list.find((r) => r.nickname === 'Trader')!;
    expect(idleRow.returnPct).toBe(0);
    expect(traderRow.totalAssets).not.toBe(idleRow.totalAssets);
    expect(traderRow.returnPct).toBeCloseTo(traderRow.totalAssets / idleRow.totalAssets - 1, 5);
  });

  it('freezes the ranking at the end, valued at the prices of the end, and refuses trades from then', async () => {
    station.clock.set(END + 5 * HOUR);
    await station.app.competitionRanking.run();
    const frozen = await board();
    expect(frozen).toMatchObject({ frozen: true, takenAt: END });
    // Valued at the end: the same figures as the accounts valued at the end instant.
    station.clock.set(END);
    const traderAtEnd = await totalCny(trader, END);
    expect(toMinor(frozen.list.find((r) => r.nickname === 'Trader')!.totalAssets)).toBe(traderAtEnd);
    station.clock.set(END + DAY);
    await station.app.competitionRanking.run();
    expect(await board()).toEqual(frozen);
    const open = data(
      await trader.client.get<Page<Position>>('/user/position/list.do', {
        state: 'open',
        competitionId: competition.id,
      }),
    );
    const sell = failure(
      await trader.client.withLang('en').post('/user/sell.do', {
        positionId: open.list[0]!.id,
        requestId: newRequestId(),
      }),
    );
    expect(sell).toMatchObject({
      code: 'COMPETITION_CLOSED',
      msg: 'The competition has ended: its ranking is final',
    });
    expect(failure(await buy(trader, { code: '600036' })).code).toBe('COMPETITION_CLOSED');
    const detail = data(await client.get<Competition>('/api/competition/detail.do', { id: competition.id }));
    expect(detail).toMatchObject({ state: 'ended', frozen: true });
  });

  it('keeps a daily equity point per entrant, the last one the frozen figure', async () => {
    const points = data(
      await trader.client.get<EquityPoint[]>('/user/competition/equity.do', { id: competition.id }),
    );
    const final = (await board()).list.find((r) => r.nickname === 'Trader')!;
    expect(points.length).toBeGreaterThanOrEqual(1);
    expect(points.at(-1)).toMatchObject({ totalAssets: final.totalAssets, returnPct: final.returnPct });
    expect(points.map((p) => p.day)).toEqual([...points.map((p) => p.day)].sort());
  });
});

/**
 * A model-based test of the double-entry ledger (ARCHITECTURE.md "Money"), on SQLite and PostgreSQL.
 *
 * fast-check draws sequences of every call that moves money, made over HTTP against a real station (pinned
 * clock, always-open) by two fresh users per run: buy, sell, limit orders placed and cancelled, margin top-up,
 * transfers between the user's accounts, flash exchange, deposits (the station's reviewer confirms them at the
 * next engine step after its delay), withdrawals and their cancellation, new-share subscriptions, placements
 * and payments, fund purchases and redemptions, fund allocation applications, trading in the sub-account and
 * ending early, and the paper-account reset; and engine steps after clock moves (minutes, a day, or to the
 * next new-share subscription window) that fill orders, charge deferred and management fees, review deposits
 * and allocations, draw and list new shares. After every step, through `checkLedger`: every posting sums to
 * zero per currency and every balance equals the sum of its entries. A refused call must answer below 500.
 *
 * The seed is fixed (LEDGER_MODEL_SEED overrides it), so a failure replays; with the defaults the test also
 * asserts that the sequences made each kind of money call succeed at least once.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Allocation } from '../../src/shared/api/funds';
import type { NewShareSubscription } from '../../src/shared/api/newshares';
import type { Order, Page, Position } from '../../src/shared/api/types';
import { checkLedger, describeLedgerCheck } from '../../server/ledger/ledger';
import { calendarOf, type CalendarIssue } from '../../server/products/new-share-calendar';
import type { FixedClock } from '../../server/market/clock';
import {
  api,
  data,
  dbTargets,
  newRequestId,
  startStation,
  type ApiResponse,
  type Registered,
  type TestStation,
} from './helpers/station';
import { readyToWithdraw, WITHDRAW_PASSWORD } from './helpers/wallet';

const SEED = Number(process.env.LEDGER_MODEL_SEED ?? 20261126);
const RUNS = 4;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const REVIEW_DELAY_S = 60;
const CODES = ['600036', '000001', '688981', '00700', 'AAPL'] as const;
const SUB_CODES = ['600036', '000001'] as const;
const FUND_CODES = ['110020', '110011'] as const;
const TRANSFER_ACCOUNTS = ['main', 'index', 'newstock'] as const;
const CURRENCIES = ['CNY', 'HKD', 'USD'] as const;
/** The money calls each default run must make succeed at least once between them. */
const COVERED = [
  'buy',
  'sell',
  'order',
  'cancelOrder',
  'transfer',
  'exchange',
  'deposit',
  'withdraw',
  'cancelWithdraw',
  'placement',
  'fundBuy',
  'fundSell',
  'allocate',
  'subBuy',
  'endAllocation',
  'reset',
] as const;

/** Users 0 and 1 trade and buy products; user 2 only moves cash (so that a reset of its account can pass). */
const trader = fc.nat(1);
const anyone = fc.nat(2);
const pick = fc.nat(7);
const cents = fc.integer({ min: 100, max: 3_000_000 });
const part = fc.double({ min: 0.2, max: 1, noNaN: true });
const weighted = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });

type Command =
  | { kind: 'buy'; who: number; code: number; lots: number; leverage: number }
  | { kind: 'sell'; who: number; pick: number; part: number }
  | { kind: 'order'; who: number; code: number; lots: number; offset: number }
  | { kind: 'cancelOrder'; who: number; pick: number }
  | { kind: 'topUp'; who: number; pick: number; cents: number }
  | { kind: 'transfer'; who: number; from: number; to: number; cents: number }
  | { kind: 'exchange'; who: number; source: number; target: number; cents: number }
  | { kind: 'deposit'; who: number; cents: number }
  | { kind: 'withdraw'; who: number; cents: number }
  | { kind: 'cancelWithdraw'; who: number; pick: number }
  | { kind: 'subscribe' | 'placement'; who: number; lots: number }
  | { kind: 'pay'; who: number; pick: number }
  | { kind: 'fundBuy'; who: number; fund: number; cents: number }
  | { kind: 'fundSell'; who: number; fund: number; part: number }
  | { kind: 'allocate'; who: number; margin: number; multiple: number; days: number }
  | { kind: 'subBuy'; who: number; code: number; lots: number }
  | { kind: 'endAllocation'; who: number }
  | { kind: 'reset'; who: number }
  | { kind: 'tick'; ms: number }
  | { kind: 'dayClose' }
  | { kind: 'nextWindow' };

const command: fc.Arbitrary<Command> = fc.oneof(
  weighted(
    4,
    fc.record({
      kind: fc.constant('buy' as const),
      who: trader,
      code: fc.nat(CODES.length - 1),
      lots: fc.integer({ min: 1, max: 5 }),
      leverage: fc.constantFrom(1, 2, 5),
    }),
  ),
  weighted(4, fc.record({ kind: fc.constant('sell' as const), who: trader, pick, part })),
  weighted(
    2,
    fc.record({
      kind: fc.constant('order' as const),
      who: trader,
      code: fc.nat(CODES.length - 1),
      lots: fc.integer({ min: 1, max: 3 }),
      offset: fc.double({ min: -0.01, max: 0.01, noNaN: true }),
    }),
  ),
  weighted(2, fc.record({ kind: fc.constant('cancelOrder' as const), who: trader, pick })),
  weighted(1, fc.record({ kind: fc.constant('topUp' as const), who: trader, pick, cents })),
  weighted(
    3,
    fc.record({
      kind: fc.constant('transfer' as const),
      who: anyone,
      from: fc.constantFrom(0, 0, 1, 2),
      to: fc.nat(2),
      cents,
    }),
  ),
  weighted(
    3,
    fc.record({
      kind: fc.constant('exchange' as const),
      who: anyone,
      source: fc.nat(2),
      target: fc.nat(2),
      cents,
    }),
  ),
  weighted(2, fc.record({ kind: fc.constant('deposit' as const), who: anyone, cents })),
  weighted(
    2,
    fc.record({
      kind: fc.constant('withdraw' as const),
      who: anyone,
      cents: fc.integer({ min: 10_000, max: 500_000 }),
    }),
  ),
  weighted(2, fc.record({ kind: fc.constant('cancelWithdraw' as const), who: anyone, pick })),
  weighted(
    3,
    fc.record({
      kind: fc.constantFrom('subscribe' as const, 'placement' as const),
      who: trader,
      lots: fc.integer({ min: 1, max: 3 }),
    }),
  ),
  weighted(1, fc.record({ kind: fc.constant('pay' as const), who: trader, pick })),
  weighted(2, fc.record({ kind: fc.constant('fundBuy' as const), who: trader, fund: fc.nat(1), cents })),
  weighted(2, fc.record({ kind: fc.constant('fundSell' as const), who: trader, fund: fc.nat(1), part })),
  weighted(
    2,
    fc.record({
      kind: fc.constant('allocate' as const),
      who: trader,
      margin: fc.integer({ min: 10, max: 200 }).map((hundreds) => hundreds * 100),
      multiple: fc.constantFrom(2, 5),
      days: fc.integer({ min: 2, max: 3 }),
    }),
  ),
  weighted(
    3,
    fc.record({
      kind: fc.constant('subBuy' as const),
      who: trader,
      code: fc.nat(1),
      lots: fc.integer({ min: 1, max: 2 }),
    }),
  ),
  weighted(1, fc.record({ kind: fc.constant('endAllocation' as const), who: trader })),
  weighted(2, fc.record({ kind: fc.constant('reset' as const), who: anyone })),
  weighted(
    3,
    fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: MINUTE, max: 90 * MINUTE }) }),
  ),
  weighted(1, fc.record({ kind: fc.constant('dayClose' as const) })),
  weighted(1, fc.record({ kind: fc.constant('nextWindow' as const) })),
);

describe.each(dbTargets)('double-entry ledger model (%s, pinned clock, always-open)', (db) => {
  let station: TestStation<FixedClock>;
  let calendar: readonly CalendarIssue[];
  const succeeded = new Set<string>();

  beforeAll(async () => {
    station = await startStation({ db, env: { REVIEW_DELAY_S: String(REVIEW_DELAY_S) } });
    calendar = calendarOf(station.app.market).list;
  });
  afterAll(async () => station?.close());

  const now = () => station.clock.now();
  const nth = <T>(list: readonly T[], n: number): T | undefined =>
    list.length === 0 ? undefined : list[n % list.length];

  async function step(ms: number): Promise<void> {
    station.clock.advance(ms);
    await station.app.engine.step();
  }

  async function openPositions(user: Registered): Promise<Position[]> {
    const page = await user.client.get<Page<Position>>('/user/position/list.do', {
      state: 'open',
      pageSize: 100,
    });
    return data(page).list;
  }

  async function latestAllocation(user: Registered) {
    return station.app.db
      .selectFrom('allocations')
      .selectAll()
      .where('user_id', '=', user.user.id)
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  async function idsOf(table: 'orders' | 'withdrawals' | 'newshare_subscriptions', user: Registered) {
    const column = table === 'newshare_subscriptions' ? 'state' : 'status';
    const wanted = table === 'newshare_subscriptions' ? 'winning' : 'pending';
    const rows = await station.app.db
      .selectFrom(table)
      .select('id')
      .where('user_id', '=', user.user.id)
      .where(column, '=', wanted)
      .orderBy('id')
      .execute();
    return rows.map((r) => Number(r.id));
  }

  /** The first user from `first` on (in turn) with something to act on, and those things. */
  async function someoneWith<T>(
    users: readonly Registered[],
    first: number,
    things: (user: Registered) => Promise<readonly T[]>,
  ): Promise<{ user: Registered; list: readonly T[] }> {
    for (let i = 0; i < users.length; i += 1) {
      const user = users[(first + i) % users.length]!;
      const list = await things(user);
      if (list.length > 0) return { user, list };
    }
    return { user: users[first]!, list: [] };
  }

  /** Trading calls: market orders, limit orders, margin top-up. */
  async function trade(
    users: readonly Registered[],
    cmd: Extract<Command, { kind: 'buy' | 'sell' | 'order' | 'cancelOrder' | 'topUp' }>,
  ): Promise<ApiResponse<unknown> | null> {
    const user = users[cmd.who]!;
    const requestId = newRequestId();
    switch (cmd.kind) {
      case 'buy': {
        const body = { code: CODES[cmd.code], lots: cmd.lots, leverage: cmd.leverage, requestId };
        return user.client.post('/user/buy.do', body);
      }
      case 'sell': {
        const { user, list } = await someoneWith(users, cmd.who, openPositions);
        const p = nth(list, cmd.pick);
        if (!p) return null;
        const lots = Math.max(1, Math.round(p.lots * cmd.part));
        return user.client.post('/user/sell.do', {
          positionId: p.id,
          ...(lots < p.lots ? { lots } : {}),
          requestId,
        });
      }
      case 'order': {
        const code = CODES[cmd.code]!;
        const quote = data(
          await api(station.url).get<{ price: number }>('/api/stock/getSingleStock.do', { code }),
        );
        const triggerPrice = Number((quote.price * (1 + cmd.offset)).toFixed(code === '00700' ? 1 : 2));
        const body = { code, lots: cmd.lots, leverage: 1, triggerPrice, requestId };
        return user.client.post<Order>('/user/addOrder.do', body);
      }
      case 'cancelOrder': {
        const { user, list } = await someoneWith(users, cmd.who, (u) => idsOf('orders', u));
        const id = nth(list, cmd.pick);
        return id === undefined
          ? null
          : user.client.post('/user/order/cancel.do', { orderId: id, requestId });
      }
      case 'topUp': {
        const { user, list } = await someoneWith(users, cmd.who, openPositions);
        const p = nth(list, cmd.pick);
        if (!p) return null;
        return user.client.post('/user/position/topUp.do', {
          positionId: p.id,
          amount: cmd.cents / 100,
          requestId,
        });
      }
    }
  }

  /** Wallet calls, and the paper-account reset. */
  async function moveCash(
    users: readonly Registered[],
    cmd: Extract<
      Command,
      { kind: 'transfer' | 'exchange' | 'deposit' | 'withdraw' | 'cancelWithdraw' | 'reset' }
    >,
  ): Promise<ApiResponse<unknown> | null> {
    const user = users[cmd.who]!;
    const requestId = newRequestId();
    switch (cmd.kind) {
      case 'transfer': {
        const body = {
          amount: cmd.cents / 100,
          from: TRANSFER_ACCOUNTS[cmd.from],
          to: TRANSFER_ACCOUNTS[cmd.to],
          requestId,
        };
        return user.client.post('/user/transAmt.do', body);
      }
      case 'exchange': {
        const body = {
          amount: cmd.cents / 100,
          source: CURRENCIES[cmd.source],
          target: CURRENCIES[cmd.target],
          requestId,
        };
        return user.client.post('/api/user/exchange.do', body);
      }
      case 'deposit':
        return user.client.post('/user/recharge/inMoney.do', {
          amount: cmd.cents / 100,
          channelId: 1,
          requestId,
        });
      case 'withdraw': {
        const body = { amount: cmd.cents / 100, withdrawPassword: WITHDRAW_PASSWORD, requestId };
        return user.client.post('/user/withdraw/outMoney.do', body);
      }
      case 'cancelWithdraw': {
        const { user, list } = await someoneWith(users, cmd.who, (u) => idsOf('withdrawals', u));
        const id = nth(list, cmd.pick);
        return id === undefined
          ? null
          : user.client.post('/user/withdraw/cancel.do', { id, reason: 'model test' });
      }
      case 'reset':
        return user.client.post('/user/account/reset.do', { requestId });
    }
  }

  /** New shares, funds and fund allocation. */
  async function buyProducts(
    users: readonly Registered[],
    cmd: Extract<
      Command,
      {
        kind:
          | 'subscribe'
          | 'placement'
          | 'pay'
          | 'fundBuy'
          | 'fundSell'
          | 'allocate'
          | 'subBuy'
          | 'endAllocation';
      }
    >,
  ): Promise<ApiResponse<unknown> | null> {
    const user = users[cmd.who]!;
    const requestId = newRequestId();
    switch (cmd.kind) {
      case 'subscribe':
      case 'placement': {
        const issue = calendar.find((i) => i.subscribeOpensAt <= now() && now() < i.subscribeClosesAt);
        if (!issue) return null;
        const path = cmd.kind === 'subscribe' ? '/user/add.do' : '/user/buyNewStockQc.do';
        return user.client.post<NewShareSubscription>(path, { code: issue.code, lots: cmd.lots, requestId });
      }
      case 'pay': {
        const { user, list } = await someoneWith(users, cmd.who, (u) => idsOf('newshare_subscriptions', u));
        const id = nth(list, cmd.pick);
        return id === undefined ? null : user.client.post('/user/submitSubscribe.do', { id, requestId });
      }
      case 'fundBuy': {
        const body = { code: FUND_CODES[cmd.fund], amount: cmd.cents / 100, requestId };
        return user.client.post('/user/fund/buy.do', body);
      }
      case 'fundSell': {
        const { user, list } = await someoneWith(users, cmd.who, (u) =>
          station.app.db
            .selectFrom('fund_holdings')
            .select(['fund_code', 'units'])
            .where('user_id', '=', u.user.id)
            .where('units', '>', 0)
            .orderBy('fund_code')
            .execute(),
        );
        const held = nth(list, cmd.fund);
        if (!held) return null;
        const units = Math.max(1, Math.floor(Number(held.units) * cmd.part));
        return user.client.post('/user/fund/sell.do', {
          code: held.fund_code,
          units: units / 100,
          requestId,
        });
      }
      case 'allocate': {
        const body = {
          typeCode: 'days',
          margin: cmd.margin,
          multiple: cmd.multiple,
          days: cmd.days,
          requestId,
        };
        return user.client.post<Allocation>('/user/funds/addFundsApply.do', body);
      }
      case 'subBuy': {
        const allocation = await latestAllocation(user);
        if (allocation?.status !== 'trading') return null;
        const body = { applyId: allocation.id, code: SUB_CODES[cmd.code], lots: cmd.lots, requestId };
        return user.client.post<Position>('/user/funds/buyFunds.do', body);
      }
      case 'endAllocation': {
        const allocation = await latestAllocation(user);
        if (allocation?.status !== 'trading') return null;
        return user.client.post('/user/funds/endFundsApply.do', { applyId: allocation.id, requestId });
      }
    }
  }

  /** Makes one call (or none when it has nothing to act on); an engine step answers null. */
  async function run(users: readonly Registered[], cmd: Command): Promise<ApiResponse<unknown> | null> {
    switch (cmd.kind) {
      case 'tick':
        return step(cmd.ms).then(() => null);
      case 'dayClose':
        return step(DAY).then(() => null);
      case 'nextWindow': {
        const next = calendar.find((i) => i.subscribeOpensAt > now());
        return step(next ? next.subscribeOpensAt + MINUTE - now() : DAY).then(() => null);
      }
      case 'buy':
      case 'sell':
      case 'order':
      case 'cancelOrder':
      case 'topUp':
        return trade(users, cmd);
      case 'transfer':
      case 'exchange':
      case 'deposit':
      case 'withdraw':
      case 'cancelWithdraw':
      case 'reset':
        return moveCash(users, cmd);
      default:
        return buyProducts(users, cmd);
    }
  }

  async function assertBalanced(after: string): Promise<void> {
    const result = await checkLedger(station.app.db);
    if (result.unbalanced.length > 0 || result.mismatches.length > 0) {
      expect.fail(`after ${after}:\n${describeLedgerCheck(result).join('\n')}`);
    }
  }

  it('keeps every posting at zero per currency and every balance at its entries after every step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 30, maxLength: 50 }), async (commands) => {
        const users: Registered[] = [];
        for (let i = 0; i < 3; i += 1) users.push(await readyToWithdraw(station, api(station.url)));
        // New shares are paid from the newstock account, which starts empty.
        for (const user of users.slice(0, 2)) {
          const body = { amount: 200_000, from: 'main', to: 'newstock', requestId: newRequestId() };
          data(await user.client.post('/user/transAmt.do', body));
        }
        await assertBalanced('registration');
        for (const cmd of commands) {
          const res = await run(users, cmd);
          if (res) {
            expect(res.http, `${cmd.kind}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
            if (res.body.status === 0) succeeded.add(cmd.kind);
          }
          await assertBalanced(JSON.stringify(cmd));
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    if (process.env.LEDGER_MODEL_SEED === undefined) {
      expect(COVERED.filter((kind) => !succeeded.has(kind))).toEqual([]);
    }
  }, 300_000);
});

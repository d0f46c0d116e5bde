/**
 * The ledger's invariants: a model-based property test. fast-check draws random sequences of buys, sells
 * (whole and part), limit orders, revokes, margin top-ups, clock ticks with engine steps (fills, stops,
 * liquidations) and day closes (deferred fees); each command runs over HTTP against a real station, and
 * after every step:
 * - every account's balance equals the sum of its ledger entries;
 * - available (balance − frozen) is never negative;
 * - frozen equals what the account's pending orders hold;
 * - a refused call wrote nothing (no ledger entry, position or order);
 * - net P&L explains every change of total assets: for each account, totalAssets − its starting balance =
 *   Σ over all its positions (open and closed) of pnl (= pricePnl − buyFee − sellFee − stampDuty − deferredFee);
 * - the model agrees with the station: a closed position never reopens, a revoked order never fills, an
 *   order the model revoked is cancelled.
 * It also draws the wallet's commands (deposits, withdrawals, their cancels, transfers, exchanges): wallet
 * ledger entries join P&L and fees in explaining total assets, and money is only created by a successful
 * deposit and only leaves by a paid withdrawal (checkMoneyCreation).
 * The clock is pinned (always-open market) and only moves forward; fast-check's seed is fixed, so a
 * failure replays.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toMinor } from '../../src/shared/money';
import type { Order, Page, Position, User } from '../../src/shared/api/types';
import { FixedClock } from '../../server/market/clock';
import { readyToWithdraw, WITHDRAW_PASSWORD } from './helpers/wallet';
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

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Stocks of each market the main, hk and us accounts trade, at prices the paper balances can afford. */
const CODES = ['600036', '000001', '688981', '00700', 'AAPL'] as const;
const LEVERAGES = [1, 2, 5] as const;

type Command =
  | { kind: 'buy'; code: number; lots: number; leverage: number }
  | { kind: 'sell'; pick: number; part: number }
  | { kind: 'order'; code: number; lots: number; leverage: number; offset: number }
  | { kind: 'revoke'; pick: number }
  | { kind: 'topUp'; pick: number; amount: number }
  | { kind: 'tick'; ms: number }
  | { kind: 'dayClose' }
  // The wallet's commands.
  | { kind: 'deposit'; cents: number }
  | { kind: 'withdraw'; cents: number }
  | { kind: 'cancelWithdraw'; pick: number }
  | { kind: 'transfer'; from: number; to: number; cents: number }
  | { kind: 'exchange'; source: number; target: number; cents: number };

const TRANSFER_ACCOUNTS = ['main', 'index', 'newstock'] as const;
const CURRENCIES = ['CNY', 'HKD', 'USD'] as const;
/** Wallet ledger types: with P&L and fees they explain every change of an account's total assets. */
const WALLET_TYPES = [
  'deposit',
  'withdraw',
  'withdraw_fee',
  'withdraw_refund',
  'transfer_in',
  'transfer_out',
  'exchange_in',
  'exchange_out',
] as const;
/** Amounts in minor units, with the simulated channel's test endings (.13 declined, .14 abandoned) likely. */
const walletCents = (min: number, max: number) =>
  fc
    .tuple(fc.integer({ min, max }), fc.constantFrom(0, 25, 50, 13, 14))
    .map(([major, cents]) => major * 100 + cents);

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('buy' as const),
      code: fc.nat(CODES.length - 1),
      lots: fc.integer({ min: 1, max: 60 }),
      leverage: fc.constantFrom(...LEVERAGES),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('sell' as const),
      pick: fc.nat(20),
      part: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('order' as const),
      code: fc.nat(CODES.length - 1),
      lots: fc.integer({ min: 1, max: 30 }),
      leverage: fc.constantFrom(...LEVERAGES),
      // The trigger as a fraction of the current price: below it a buy waits for the price to fall.
      offset: fc.double({ min: -0.03, max: 0.005, noNaN: true }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('revoke' as const), pick: fc.nat(20) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('topUp' as const),
      pick: fc.nat(20),
      amount: fc.integer({ min: 1, max: 5_000 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('tick' as const),
      ms: fc.oneof(
        fc.integer({ min: 1_000, max: 5 * MINUTE }),
        fc.integer({ min: 5 * MINUTE, max: 6 * HOUR }),
      ),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'dayClose' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('deposit' as const), cents: walletCents(50, 60_000) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('withdraw' as const), cents: walletCents(50, 400_000) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancelWithdraw' as const), pick: fc.nat(20) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('transfer' as const),
      from: fc.nat(2),
      to: fc.nat(2),
      cents: walletCents(1, 300_000),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('exchange' as const),
      source: fc.nat(2),
      target: fc.nat(2),
      cents: walletCents(0, 200_000),
    }),
  },
);

interface Model {
  /** Positions the model saw open (ids); closed ones must stay closed. */
  open: Set<number>;
  closed: Set<number>;
  pending: Set<number>;
  revoked: Set<number>;
  /** Withdrawals the model saw pending (ids). */
  withdrawals: Set<number>;
}

async function allPages<T>(fetchPage: (pageNum: number) => Promise<ApiResponse<Page<T>>>): Promise<T[]> {
  const items: T[] = [];
  for (let pageNum = 1; ; pageNum++) {
    const page = data(await fetchPage(pageNum));
    items.push(...page.list);
    if (page.list.length === 0 || items.length >= page.total) return items;
  }
}

describe.each(dbTargets)('trading invariants (%s, pinned clock, always-open)', (db) => {
  let station: TestStation<FixedClock>;

  beforeAll(async () => {
    station = await startStation({ db });
  });
  afterAll(async () => station?.close());

  async function writes(userId: number): Promise<number[]> {
    const count = async (
      table:
        'ledger_entries' | 'positions' | 'orders' | 'recharges' | 'withdrawals' | 'transfers' | 'exchanges',
    ) => {
      const row = await station.app.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };
    return [
      await count('ledger_entries'),
      await count('positions'),
      await count('orders'),
      await count('recharges'),
      await count('withdrawals'),
      await count('transfers'),
      await count('exchanges'),
    ];
  }

  async function positions(user: Registered): Promise<Position[]> {
    const open = await allPages((pageNum) =>
      user.client.get<Page<Position>>('/user/position/list.do', { state: 'open', pageNum, pageSize: 100 }),
    );
    const closed = await allPages((pageNum) =>
      user.client.get<Page<Position>>('/user/position/list.do', { state: 'closed', pageNum, pageSize: 100 }),
    );
    return [...open, ...closed];
  }

  async function checkInvariants(user: Registered, model: Model, starting: Map<string, number>) {
    await station.assertLedger();
    const userId = user.user.id;
    const accounts = await station.app.db
      .selectFrom('accounts')
      .selectAll()
      .where('user_id', '=', userId)
      .execute();
    const orders = await station.app.db
      .selectFrom('orders')
      .selectAll()
      .where('user_id', '=', userId)
      .execute();
    for (const account of accounts) {
      expect(
        Number(account.balance) - Number(account.frozen),
        `available of ${account.type}`,
      ).toBeGreaterThanOrEqual(0);
      const held = orders
        .filter((o) => o.account_id === account.id && o.status === 'pending')
        .reduce((sum, o) => sum + Number(o.frozen), 0);
      expect(Number(account.frozen), `frozen of ${account.type}`).toBe(held);
    }

    const info = data(await user.client.get<User>('/user/getUserInfo.do'));
    const all = await positions(user);
    const accountOf: Record<string, string> = {
      a: 'main',
      star: 'main',
      hk: 'hk',
      us: 'us',
      index: 'index',
      futures: 'index',
    };
    const walletEntries = await station.app.db
      .selectFrom('ledger_entries as l')
      .innerJoin('accounts as a', 'a.id', 'l.account_id')
      .select(['a.type as account', 'l.type as type', 'l.amount as amount'])
      .where('l.user_id', '=', userId)
      .where('l.type', 'in', [...WALLET_TYPES])
      .execute();
    for (const account of info.accounts) {
      const mine = all.filter((p) => accountOf[p.market] === account.type);
      const moved = walletEntries
        .filter((e) => e.account === account.type)
        .reduce((sum, e) => sum + Number(e.amount), 0);
      const explained =
        moved +
        mine.reduce(
          (sum, p) =>
            // Net pnl: the price pnl less every fee charged so far (API.md position).
            sum + toMinor(p.pnl),
          0,
        );
      expect(
        toMinor(account.totalAssets) - starting.get(account.type)!,
        `total assets of ${account.type} explained by pnl, fees and wallet moves`,
      ).toBe(explained);
      expect(toMinor(account.available)).toBeGreaterThanOrEqual(0);
    }

    // The model: a closed position stays closed; a revoked order stays cancelled.
    const byId = new Map(all.map((p) => [p.id, p]));
    for (const id of model.closed)
      expect(byId.get(id)?.closedAt, `position ${id} stays closed`).not.toBeNull();
    for (const p of all) {
      if (p.closedAt === null) model.open.add(p.id);
      else {
        model.open.delete(p.id);
        model.closed.add(p.id);
      }
    }
    for (const order of orders) {
      if (model.revoked.has(order.id)) expect(order.status).toBe('cancelled');
      if (order.status !== 'pending') model.pending.delete(order.id);
    }

    await checkMoneyCreation(userId, walletEntries, model);
  }

  /**
   * Money is only created by a successful deposit and only leaves by a paid withdrawal (its fee
   * included; a pending one is held out of the balance until it is paid, or refunded whole); transfers
   * move it between accounts and exchanges convert it at no more than the mid rate.
   */
  async function checkMoneyCreation(
    userId: number,
    entries: { type: string; amount: number }[],
    model: Model,
  ): Promise<void> {
    const sum = (...types: string[]) =>
      entries.filter((e) => types.includes(e.type)).reduce((s, e) => s + Number(e.amount), 0);
    const recharges = await station.app.db
      .selectFrom('recharges')
      .selectAll()
      .where('user_id', '=', userId)
      .execute();
    const credited = recharges
      .filter((r) => r.status === 'success')
      .reduce((s, r) => s + Number(r.amount), 0);
    expect(sum('deposit'), 'deposits credit exactly the successful ones').toBe(credited);
    const withdrawals = await station.app.db
      .selectFrom('withdrawals')
      .selectAll()
      .where('user_id', '=', userId)
      .execute();
    const out = withdrawals
      .filter((w) => w.status === 'paid' || w.status === 'pending')
      .reduce((s, w) => s + Number(w.amount), 0);
    expect(
      sum('withdraw', 'withdraw_fee', 'withdraw_refund') + out,
      'only paid (or still pending) withdrawals left',
    ).toBe(0);
    expect(sum('transfer_in', 'transfer_out'), 'transfers create nothing').toBe(0);
    const exchanges = await station.app.db
      .selectFrom('exchanges')
      .selectAll()
      .where('user_id', '=', userId)
      .execute();
    expect(sum('exchange_out') + exchanges.reduce((s, x) => s + Number(x.source_amount), 0)).toBe(0);
    expect(sum('exchange_in')).toBe(exchanges.reduce((s, x) => s + Number(x.target_amount), 0));
    for (const x of exchanges) {
      expect(Number(x.target_amount), `exchange ${x.id} at most the mid rate`).toBeLessThanOrEqual(
        Number(x.source_amount) * x.mid_rate * (1 - x.spread_rate) + 1e-6,
      );
    }
    for (const w of withdrawals) if (w.status !== 'pending') model.withdrawals.delete(w.id);
  }

  async function quotePrice(code: string): Promise<number> {
    const detail = data(
      await api(station.url).get<{ price: number }>('/api/stock/getSingleStock.do', { code }),
    );
    return detail.price;
  }

  async function run(user: Registered, model: Model, cmd: Command): Promise<ApiResponse<unknown> | null> {
    const pick = <T>(ids: T[], n: number): T | undefined =>
      ids.length === 0 ? undefined : ids[n % ids.length];
    switch (cmd.kind) {
      case 'buy':
        return user.client.post('/user/buy.do', {
          code: CODES[cmd.code],
          lots: cmd.lots,
          leverage: cmd.leverage,
          requestId: newRequestId(),
        });
      case 'sell': {
        const id = pick([...model.open], cmd.pick);
        if (id === undefined) return null;
        const position = data(
          await user.client.get<Page<Position>>('/user/position/list.do', { state: 'open', pageSize: 100 }),
        ).list.find((p) => p.id === id);
        if (!position) return null;
        const lots = Math.max(1, Math.round(position.lots * cmd.part));
        return user.client.post('/user/sell.do', {
          positionId: id,
          ...(lots < position.lots ? { lots } : {}),
          requestId: newRequestId(),
        });
      }
      case 'order': {
        const code = CODES[cmd.code]!;
        const price = await quotePrice(code);
        const decimals = code === '00700' ? 1 : 2;
        const trigger = Number((price * (1 + cmd.offset)).toFixed(decimals));
        const res = await user.client.post<Order>('/user/addOrder.do', {
          code,
          lots: cmd.lots,
          leverage: cmd.leverage,
          triggerPrice: trigger,
          requestId: newRequestId(),
        });
        if (res.body.status === 0) model.pending.add(data(res).id);
        return res;
      }
      case 'revoke': {
        const id = pick([...model.pending], cmd.pick);
        if (id === undefined) return null;
        const res = await user.client.post<Order>('/user/order/cancel.do', {
          orderId: id,
          requestId: newRequestId(),
        });
        if (res.body.status === 0) {
          expect(data(res).status).toBe('cancelled');
          model.revoked.add(id);
          model.pending.delete(id);
        }
        return res;
      }
      case 'topUp': {
        const id = pick([...model.open], cmd.pick);
        if (id === undefined) return null;
        return user.client.post('/user/position/topUp.do', {
          positionId: id,
          amount: cmd.amount,
          requestId: newRequestId(),
        });
      }
      case 'tick':
        station.clock.advance(cmd.ms);
        await station.app.engine.step();
        return null;
      case 'dayClose':
        station.clock.advance(DAY);
        await station.app.engine.step();
        return null;
      case 'deposit':
        return user.client.post('/user/recharge/inMoney.do', {
          amount: cmd.cents / 100,
          channelId: 1,
          requestId: newRequestId(),
        });
      case 'withdraw': {
        const res = await user.client.post<{ id: number }>('/user/withdraw/outMoney.do', {
          amount: cmd.cents / 100,
          withdrawPassword: WITHDRAW_PASSWORD,
          requestId: newRequestId(),
        });
        if (res.body.status === 0) model.withdrawals.add(data(res).id);
        return res;
      }
      case 'cancelWithdraw': {
        const id = pick([...model.withdrawals], cmd.pick);
        if (id === undefined) return null;
        const res = await user.client.post('/user/withdraw/cancel.do', { id, reason: 'model test' });
        if (res.body.status === 0) model.withdrawals.delete(id);
        return res;
      }
      case 'transfer':
        return user.client.post('/user/transAmt.do', {
          amount: cmd.cents / 100,
          from: TRANSFER_ACCOUNTS[cmd.from],
          to: TRANSFER_ACCOUNTS[cmd.to],
          requestId: newRequestId(),
        });
      case 'exchange':
        return user.client.post('/api/user/exchange.do', {
          amount: cmd.cents / 100,
          source: CURRENCIES[cmd.source],
          target: CURRENCIES[cmd.target],
          requestId: newRequestId(),
        });
    }
  }

  it('keeps every invariant after every step of random trading sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 5, maxLength: 25 }), async (commands) => {
        // Time only moves forward (the engine keeps its progress): each run starts where the last ended.
        // Ready to withdraw (DOMAIN.md "Accounts and money"): KYC passed, a bank card, a withdrawal password.
        const user = await readyToWithdraw(station, api(station.url));
        const starting = new Map(user.user.accounts.map((a) => [a.type as string, toMinor(a.totalAssets)]));
        const model: Model = {
          open: new Set(),
          closed: new Set(),
          pending: new Set(),
          revoked: new Set(),
          withdrawals: new Set(),
        };
        for (const cmd of commands) {
          const before = await writes(user.user.id);
          const res = await run(user, model, cmd);
          if (res && res.body.status !== 0) {
            expect(res.http, JSON.stringify(res.body)).toBeLessThan(500);
            expect(await writes(user.user.id), `refused ${cmd.kind} wrote nothing`).toEqual(before);
          }
          await checkInvariants(user, model, starting);
        }
      }),
      { numRuns: 12, seed: 20261126, endOnFailure: true },
    );
  }, 600_000);
});

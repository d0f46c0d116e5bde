/**
 * The ledger's invariants extended to the products: a model-based property test
 * of new shares and bonds, block trades, VIP picks, funds and fund allocation, on SQLite and PostgreSQL.
 *
 * fast-check draws sequences of commands of three fresh users per run (user 0 holds the VIP permission,
 * user 1 never does, the back office grants and revokes user 2's as the sequence goes): transfers between
 * main and newstock, subscriptions in an issue's window, chip-grab placements, payments of winning lots
 * (some left unpaid past the deadline), sales of listed (and other) positions, block trades in and out of
 * their windows, VIP picks with and without the permission, fund purchases and redemptions, fund allocation
 * applications (a quarter under tight warning/liquidation lines, so some are liquidated), operator
 * decisions, trading in the sub-account, ending early, clock moves (minutes, hours, a whole day, or to the
 * next draw / payment deadline / listing / subscription window / 00:00 UTC close) each followed by an
 * engine step (draws, forfeits, listings, reviews, daily management fees, liquidation, expiry) — except a
 * quarter of the small moves, after which users act while the engine lags behind the clock — and refusals
 * with bad input. Each command runs over HTTP against a real station with a pinned clock (always-open)
 * that only moves forward; a run spans at most RUN_SPAN. Where the model knows the answer it checks it
 * (e.g. a payment before the deadline with enough cash must succeed; a VIP buy without the permission must
 * be NO_PERMISSION; a fund trade's units, fee and amount at the day's NAV); a refused call must answer a
 * translated envelope below 500 and write nothing.
 *
 * After every step (global checks, then each user the step could affect: the one who acted, or everyone
 * when the clock or the engine moved):
 * - station.assertLedger(), and stronger: each account's entries, in id order, run up exactly to each
 *   entry's balance_after and to the balance; available (balance − frozen) is never negative (for every
 *   account of every user); frozen equals what pending limit orders hold (none here, so 0);
 * - every ledger entry is of a known type and is explained by the record it refers to:
 *   · opening_balance = the paper starting balance; HK and US accounts are untouched;
 *   · transfer_in + transfer_out = 0, and the newstock account's transfers are what the model moved;
 *   · a subscription's entries (ref 'newshare') = −amount_paid; amount_paid is 0 unless paid, and then the
 *     won lots × 100 × its price; a listed one is an open position of the newstock account with that margin;
 *   · a position's entries (ref 'position', its split-off closed parts included) = − Σ open margin
 *     + Σ closed P&L − Σ (buy fee + sell fee + stamp duty + deferred fee), + amount_paid when it came from a
 *     subscription (that position's margin was paid by the subscription's entry, not by a 'buy' entry);
 *   · a fund trade's entry = −amount (buy) / +amount (sell); holdings hold Σ bought − Σ sold units, at the
 *     cost the model expects;
 *   · an allocation's entries: main −margin on applying; on approval the sub-account +margin and
 *     +allocated; management fees = −fees_charged, one day's fee at each close (while trading: every close
 *     the engine handled, none ahead of the clock; once ended: every close before the end); at the end the
 *     sub-account repays at most the allocated funds (all of them whenever anything is returned), and
 *     returns the rest to main; a rejection returns the margin. With no allocation trading the sub-account
 *     is empty.
 * - Conservation (CNY; nothing here converts currencies). Money only leaves a user's accounts to the station
 *   side or comes back from it through the records above, so with every term read from the product tables
 *   (not from the ledger), except the repayments which only the ledger records:
 *     Σ balances(main, index, newstock, sub-account) = starting balances
 *       − Σ margin of open positions              (held in positions)
 *       + Σ P&L of closed positions − Σ their and open positions' trading fees
 *       − Σ amount_paid of paid, not yet listed subscriptions   (held by the issuer until listing)
 *       − Σ fund purchases + Σ fund redemptions    (the fund's units are not money in the ledger)
 *       − Σ margin of allocations under review     (held by the station until the decision)
 *       + Σ allocated of approved allocations − Σ repaid (the station's loan)  − Σ management fees charged.
 *   Every unit of money in the ledger is thus accounted for: no command or engine event creates or loses any.
 * - States only move forward: a subscription subscribed → not winning | winning → paid | abandoned → listed
 *   → closed; an allocation review → trading → expired | ended (review → ended on rejection); an issue's
 *   draw, deadline and listing marks never go back; a closed position never reopens; a VIP allocation's
 *   sold lots never fall, equal Σ of its purchases, never exceed its size nor a user's cap; an issue's
 *   numbers, placement sold and winners add up to its subscriptions.
 *
 * The seed is fixed (PRODUCTS_SEED overrides it, PRODUCTS_RUNS the number of runs), so a failure replays;
 * with the defaults the test also asserts that the sequences reached each product's main paths (COVERED).
 * Left out: currency exchange (trading-invariants.test.ts drives it) and the paper-account reset, which
 * today lets money come back after it while fund units, a paid subscription or an allocation are
 * outstanding (resetPaperAccount only checks open positions and pending orders; reported, not modelled).
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyRate, toMinor } from '../../src/shared/money';
import type { BlockTradeOffer, BlockTradeRecord, VipPick, VipPurchase } from '../../src/shared/api/dzvip';
import type {
  Allocation,
  AllocationSetting,
  AllocationStatus,
  AllocationType,
  FundProduct,
  FundTrade,
} from '../../src/shared/api/funds';
import type { NewShareSubscription, SubscriptionState } from '../../src/shared/api/newshares';
import type { Page, Position, StockDetail } from '../../src/shared/api/types';
import type { FixedClock } from '../../server/market/clock';
import { calendarOf, type CalendarIssue } from '../../server/products/new-share-calendar';
import {
  closeOfTradingDay,
  decideAllocationByOperator,
  SUB_ACCOUNT_TYPE,
} from '../../server/products/fund-allocation';
import { runOperatorCommand } from '../../server/cli/commands';
import { AppError } from '../../server/platform/errors';
import {
  api,
  data,
  dbTargets,
  failure,
  newRequestId,
  register,
  startStation,
  type ApiResponse,
  type Registered,
  type TestStation,
} from './helpers/station';

// A fixed seed by default, so a run never passes or fails by luck; PRODUCTS_SEED explores other sequences.
const SEED = Number(process.env.PRODUCTS_SEED ?? 7);
const RUNS = Number(process.env.PRODUCTS_RUNS ?? 4);

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const USERS = 3;
/** How far the clock may move in one run. */
const RUN_SPAN = 25 * DAY;
/** The station's reviewer approves after half an hour, so the operator sometimes decides first. */
const REVIEW_DELAY_S = 1800;
/** A-share and STAR stocks the sub-account buys. */
const SUB_CODES = ['600000', '600036', '000001', '688981'] as const;
const FUND_CODES = ['110020', '110011', '161725', '000171', '003003'] as const;
const BAD_VARIANTS = 20;
const CNY_TYPES = ['main', 'index', 'newstock'] as const;
/** What the default sequences reach (a guard against a test that silently stops exercising a product). */
const COVERED: readonly string[] = [
  'subscribe:OK',
  'placement:OK',
  'pay:OK',
  'pay:INSUFFICIENT_FUNDS',
  'sell:OK',
  'sell:T_PLUS_ONE',
  'blockTrade:OK',
  'vip:OK',
  'vip:NO_PERMISSION',
  'fundBuy:OK',
  'fundSell:OK',
  'apply:OK',
  'subBuy:OK',
  'end:OK',
  'bad:VALIDATION',
  'subscription:abandoned',
  'subscription:listed',
  'allocation:expired:expiry',
  'allocation:ended:user',
  'allocation:ended:rejected',
  'allocation:ended:liquidation',
];

type Command =
  | { kind: 'transfer'; who: number; toNewstock: boolean; cents: number }
  | { kind: 'subscribe'; who: number; wait: boolean; pick: number; frac: number }
  | { kind: 'placement'; who: number; wait: boolean; pick: number; frac: number }
  | { kind: 'pay'; who: number; pick: number; anyState: boolean }
  | { kind: 'sell'; who: number; pick: number; part: number }
  | { kind: 'blockTrade'; who: number; pick: number; extra: number; leverage: number }
  | { kind: 'vip'; who: number; anyone: boolean; pick: number; frac: number }
  | { kind: 'permission'; grant: boolean }
  | { kind: 'fundBuy'; who: number; fund: number; cents: number }
  | { kind: 'fundSell'; who: number; fund: number; part: number }
  | {
      kind: 'apply';
      who: number;
      months: boolean;
      hundreds: number;
      multiple: number;
      days: number;
      tight: boolean;
    }
  | { kind: 'decide'; who: number; approve: boolean }
  | { kind: 'subBuy'; who: number; code: number; lots: number }
  | { kind: 'subSell'; who: number; pick: number; part: number }
  | { kind: 'end'; who: number }
  | { kind: 'tick'; step: boolean; ms: number }
  | { kind: 'event'; target: number; offset: number }
  | { kind: 'bad'; who: number; variant: number };

const who = fc.nat(USERS - 1);
const weighted = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });

const command: fc.Arbitrary<Command> = fc.oneof(
  weighted(
    5,
    fc.record({
      kind: fc.constant('transfer' as const),
      who,
      toNewstock: fc.integer({ min: 0, max: 4 }).map((n) => n > 0),
      cents: fc
        .tuple(fc.integer({ min: 1_000, max: 300_000 }), fc.constantFrom(0, 50))
        .map(([major, cents]) => major * 100 + cents),
    }),
  ),
  weighted(
    8,
    fc.record({
      kind: fc.constant('subscribe' as const),
      who,
      wait: fc.integer({ min: 0, max: 3 }).map((n) => n > 0),
      pick: fc.nat(5),
      // Of the per-user cap: mostly much of it (so the draw is oversubscribed at times), above it at times.
      frac: fc
        .oneof(
          fc.integer({ min: 0, max: 79 }),
          fc.integer({ min: 80, max: 100 }),
          fc.integer({ min: 80, max: 115 }),
        )
        .map((n) => n / 100),
    }),
  ),
  weighted(
    2,
    fc.record({
      kind: fc.constant('placement' as const),
      who,
      wait: fc.integer({ min: 0, max: 3 }).map((n) => n > 0),
      pick: fc.nat(5),
      // Of the per-user cap: mostly much of it (so the draw is oversubscribed at times), above it at times.
      frac: fc
        .oneof(
          fc.integer({ min: 0, max: 79 }),
          fc.integer({ min: 80, max: 100 }),
          fc.integer({ min: 80, max: 115 }),
        )
        .map((n) => n / 100),
    }),
  ),
  weighted(
    10,
    fc.record({
      kind: fc.constant('pay' as const),
      who,
      pick: fc.nat(10),
      anyState: fc.integer({ min: 0, max: 4 }).map((n) => n === 0),
    }),
  ),
  weighted(
    4,
    fc.record({
      kind: fc.constant('sell' as const),
      who,
      pick: fc.nat(10),
      part: fc.integer({ min: 0, max: 100 }).map((n) => n / 100),
    }),
  ),
  weighted(
    3,
    fc.record({
      kind: fc.constant('blockTrade' as const),
      who,
      pick: fc.nat(7),
      extra: fc.integer({ min: -1, max: 12 }),
      leverage: fc.constantFrom(1, 1, 2, 5, 7),
    }),
  ),
  weighted(
    3,
    fc.record({
      kind: fc.constant('vip' as const),
      who,
      anyone: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
      pick: fc.nat(3),
      frac: fc.integer({ min: 0, max: 115 }).map((n) => n / 100),
    }),
  ),
  weighted(1, fc.record({ kind: fc.constant('permission' as const), grant: fc.boolean() })),
  weighted(
    3,
    fc.record({
      kind: fc.constant('fundBuy' as const),
      who,
      fund: fc.nat(FUND_CODES.length - 1),
      cents: fc.oneof(fc.integer({ min: 100, max: 1_000 }), fc.integer({ min: 1_000, max: 10_000_000 })),
    }),
  ),
  weighted(
    2,
    fc.record({
      kind: fc.constant('fundSell' as const),
      who,
      fund: fc.nat(FUND_CODES.length - 1),
      part: fc.integer({ min: 0, max: 120 }).map((n) => n / 100),
    }),
  ),
  weighted(
    4,
    fc.record({
      kind: fc.constant('apply' as const),
      who,
      months: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
      hundreds: fc.oneof(
        { weight: 1, arbitrary: fc.integer({ min: 5, max: 9 }) },
        { weight: 5, arbitrary: fc.integer({ min: 10, max: 400 }) },
      ),
      multiple: fc.nat(8),
      days: fc.nat(3),
      tight: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
    }),
  ),
  weighted(2, fc.record({ kind: fc.constant('decide' as const), who, approve: fc.boolean() })),
  weighted(
    5,
    fc.record({
      kind: fc.constant('subBuy' as const),
      who,
      code: fc.nat(SUB_CODES.length - 1),
      lots: fc.integer({ min: 1, max: 15 }),
    }),
  ),
  weighted(
    2,
    fc.record({
      kind: fc.constant('subSell' as const),
      who,
      pick: fc.nat(5),
      part: fc.integer({ min: 0, max: 100 }).map((n) => n / 100),
    }),
  ),
  weighted(1, fc.record({ kind: fc.constant('end' as const), who })),
  weighted(
    3,
    fc.record({
      kind: fc.constant('tick' as const),
      // A quarter of the moves leave the engine behind: users act before it handles what fell due.
      step: fc.integer({ min: 0, max: 3 }).map((n) => n > 0),
      ms: fc.oneof(
        { weight: 7, arbitrary: fc.integer({ min: MINUTE, max: 45 * MINUTE }) },
        { weight: 2, arbitrary: fc.integer({ min: HOUR, max: 8 * HOUR }) },
        { weight: 1, arbitrary: fc.constant(DAY) },
      ),
    }),
  ),
  weighted(
    6,
    fc.record({
      kind: fc.constant('event' as const),
      target: fc.constantFrom(0, 0, 1, 1, 1, 2, 2, 3, 4, 4, 5),
      offset: fc.integer({ min: 0, max: 20 * MINUTE }),
    }),
  ),
  weighted(2, fc.record({ kind: fc.constant('bad' as const), who, variant: fc.nat(BAD_VARIANTS - 1) })),
);

/** The states a subscription may move to next (DOMAIN.md; 'closed' is read off the position). */
const SUBSCRIPTION_NEXT: Record<SubscriptionState, readonly SubscriptionState[]> = {
  subscribed: ['not_winning', 'winning'],
  winning: ['paid', 'abandoned'],
  paid: ['listed'],
  listed: ['closed'],
  not_winning: [],
  abandoned: [],
  closed: [],
};
const ALLOCATION_NEXT: Record<AllocationStatus, readonly AllocationStatus[]> = {
  review: ['trading', 'ended'],
  trading: ['expired', 'ended'],
  expired: [],
  ended: [],
};

/** Whether `to` is `from` or comes after it by the transitions of `next`. */
function reachable<S extends string>(next: Record<S, readonly S[]>, from: S, to: S): boolean {
  const seen = new Set<S>([from]);
  const queue: S[] = [from];
  while (queue.length > 0) {
    const s = queue.shift()!;
    if (s === to) return true;
    for (const n of next[s]) {
      if (!seen.has(n)) {
        seen.add(n);
        queue.push(n);
      }
    }
  }
  return false;
}

const POSITION_TYPES = new Set([
  'buy',
  'buy_fee',
  'sell',
  'sell_fee',
  'stamp_duty',
  'deferred_fee',
  'margin_release',
  'top_up',
]);
const KNOWN_TYPES = new Set([
  ...POSITION_TYPES,
  'opening_balance',
  'transfer_in',
  'transfer_out',
  'fund_buy',
  'fund_sell',
  'allocation_margin',
  'allocation_credit',
  'management_fee',
  'allocation_repay',
  'allocation_return',
]);

interface SubscriptionModel {
  code: string;
  kind: 'lottery' | 'placement';
  state: SubscriptionState;
}

interface UserModel {
  user: Registered;
  vip: boolean;
  subs: Map<number, SubscriptionModel>;
  open: Set<number>;
  closed: Set<number>;
  /** Units in hundredths and cost in minor units, as the model expects them. */
  funds: Map<string, { units: number; cost: number }>;
  allocations: Map<number, AllocationStatus>;
  /** Net amount the user moved into newstock (minor units). */
  newstockNet: number;
}

/** The codes a command's answer may have: 'OK' for a success, 'REFUSED' for any refusal. */
type Expected = readonly string[] | null;

interface Outcome {
  res: ApiResponse<unknown> | null;
  expected: Expected;
  /** What the tables held right before the call, when the command moved the clock first. */
  before?: Record<string, number>;
  /** Checks of a successful answer against the model. */
  verify?: (res: ApiResponse<unknown>) => Promise<void> | void;
}

const num = (v: number | string | bigint | null | undefined) => Number(v ?? 0);
/** −x without a negative zero (which toBe tells apart from 0). */
const neg = (x: number) => 0 - x;

describe.each(dbTargets)('product invariants (%s, pinned clock, always-open)', (db) => {
  let station: TestStation<FixedClock>;
  let calendar: readonly CalendarIssue[];
  let byCode: Map<string, CalendarIssue>;
  /** Shared across runs: VIP sold lots and issue marks seen, which only grow. */
  const vipSold = new Map<number, number>();
  const issueRank = new Map<string, number>();

  beforeAll(async () => {
    station = await startStation({ db, env: { REVIEW_DELAY_S: String(REVIEW_DELAY_S) } });
    // The model prices every redemption at the fund's flat redeemFeeRate; the short-holding tier, per
    // purchase lot, has its own tests (fund-redemption.test.ts).
    station.config.settings.products.funds.shortHold.days = 0;
    calendar = calendarOf(station.app.market).list;
    byCode = new Map(calendar.map((i) => [i.code, i]));
    await station.app.engine.step();
  });
  /** Outcomes (command:code) and end states reached, to show the default sequences exercise each product. */
  const reached = new Set<string>();
  let runStart = 0;
  let runEnd = 0;
  /** When the engine last stepped: the clock may run ahead of it (the engine lags). */
  let lastStep = 0;
  afterAll(async () => station?.close());

  const now = () => station.clock.now();
  const anon = () => api(station.url);

  /** Moves the clock forward to t and steps the engine (which then has handled everything up to t). */
  async function stepTo(t: number): Promise<void> {
    if (t > now()) station.clock.set(t);
    await station.app.engine.step();
    lastStep = now();
  }

  async function accountRows(userId: number) {
    return station.app.db
      .selectFrom('accounts')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
  }

  async function available(userId: number, type: string): Promise<number> {
    const row = (await accountRows(userId)).find((a) => a.type === type);
    return row ? num(row.balance) - num(row.frozen) : 0;
  }

  async function fundList(): Promise<Map<string, FundProduct>> {
    const list = data(await anon().get<FundProduct[]>('/api/fund/list.do'));
    return new Map(list.map((f) => [f.code, f]));
  }

  /** Row counts and sums of every table a money call writes: a refused call changes none. */
  async function writes(): Promise<Record<string, number>> {
    const app = station.app.db;
    const pdb = station.app.station.db;
    const count = async (
      table:
        | 'ledger_entries'
        | 'positions'
        | 'newshare_subscriptions'
        | 'fund_trades'
        | 'fund_holdings'
        | 'allocations'
        | 'transfers'
        | 'accounts'
        | 'orders',
    ) =>
      num(
        (
          await app
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const sums = await app
      .selectFrom('accounts')
      .select([
        sql<number>`cast(coalesce(sum(balance), 0) as bigint)`.as('balance'),
        sql<number>`cast(coalesce(sum(frozen), 0) as bigint)`.as('frozen'),
      ])
      .executeTakeFirstOrThrow();
    const issues = await app
      .selectFrom('newshare_issues')
      .select([
        sql<number>`cast(coalesce(sum(numbers_count), 0) as bigint)`.as('numbers'),
        sql<number>`cast(coalesce(sum(placement_sold), 0) as bigint)`.as('placement'),
      ])
      .executeTakeFirstOrThrow();
    const holdings = await app
      .selectFrom('fund_holdings')
      .select(sql<number>`cast(coalesce(sum(units), 0) as bigint)`.as('units'))
      .executeTakeFirstOrThrow();
    const vip = await pdb
      .selectFrom('vip_picks')
      .select(sql<number>`cast(coalesce(sum(sold_lots), 0) as bigint)`.as('sold'))
      .executeTakeFirstOrThrow();
    const pcount = async (table: 'block_trade_buys' | 'vip_buys') =>
      num(
        (
          await pdb
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      ledger: await count('ledger_entries'),
      positions: await count('positions'),
      subscriptions: await count('newshare_subscriptions'),
      fundTrades: await count('fund_trades'),
      fundHoldings: await count('fund_holdings'),
      allocations: await count('allocations'),
      transfers: await count('transfers'),
      accounts: await count('accounts'),
      orders: await count('orders'),
      blockTrades: await pcount('block_trade_buys'),
      vipBuys: await pcount('vip_buys'),
      balance: num(sums.balance),
      frozen: num(sums.frozen),
      numbers: num(issues.numbers),
      placement: num(issues.placement),
      units: num(holdings.units),
      vipSold: num(vip.sold),
    };
  }

  // ---------------------------------------------------------------------------------------------------
  // Invariants

  async function checkGlobal(): Promise<void> {
    await station.assertLedger();
    const app = station.app.db;
    const negative = await app
      .selectFrom('accounts')
      .select(['id', 'user_id', 'type', 'balance', 'frozen'])
      .where((eb) => eb(eb('balance', '-', eb.ref('frozen')), '<', 0))
      .execute();
    expect(negative, 'no account of any user has a negative available balance').toEqual([]);

    // VIP allocations: sold = Σ purchases ≤ size, never falling; a user's purchases ≤ the per-user cap.
    const pdb = station.app.station.db;
    // Only allocations and issues that may still change (earlier ones were checked while they could).
    const picks = await pdb
      .selectFrom('vip_picks')
      .selectAll()
      .where('closes_at', '>=', runStart - DAY)
      .execute();
    const buys =
      picks.length === 0
        ? []
        : await pdb
            .selectFrom('vip_buys')
            .select(['pick_id', 'user_id', 'lots'])
            .where(
              'pick_id',
              'in',
              picks.map((p) => p.id),
            )
            .execute();
    for (const pick of picks) {
      const mine = buys.filter((b) => b.pick_id === pick.id);
      const sold = num(pick.sold_lots);
      expect(sold, `VIP pick ${pick.id} sold = Σ purchases`).toBe(mine.reduce((s, b) => s + num(b.lots), 0));
      expect(sold).toBeLessThanOrEqual(num(pick.total_lots));
      expect(sold, `VIP pick ${pick.id} sold lots never fall`).toBeGreaterThanOrEqual(
        vipSold.get(pick.id) ?? 0,
      );
      vipSold.set(pick.id, sold);
      const perUser = new Map<number, number>();
      for (const b of mine) perUser.set(b.user_id, (perUser.get(b.user_id) ?? 0) + num(b.lots));
      for (const lots of perUser.values()) expect(lots).toBeLessThanOrEqual(num(pick.max_lots_per_user));
    }

    // Issues: numbers, placement and winners add up to the subscriptions; marks never go back.
    const live = calendar.filter((i) => i.listingAt >= runStart - DAY).map((i) => i.code);
    const issues =
      live.length === 0
        ? []
        : await app.selectFrom('newshare_issues').selectAll().where('code', 'in', live).execute();
    const subs =
      live.length === 0
        ? []
        : await app
            .selectFrom('newshare_subscriptions')
            .select(['code', 'kind', 'lots', 'won_lots', 'state'])
            .where('code', 'in', live)
            .execute();
    for (const row of issues) {
      const issue = byCode.get(row.code)!;
      const lottery = subs.filter((s) => s.code === row.code && s.kind === 'lottery');
      const placement = subs.filter((s) => s.code === row.code && s.kind === 'placement');
      expect(num(row.numbers_count), `${row.code} numbers`).toBe(lottery.reduce((s, x) => s + x.lots, 0));
      expect(num(row.placement_sold), `${row.code} placement`).toBe(
        placement.reduce((s, x) => s + x.lots, 0),
      );
      expect(num(row.placement_sold)).toBeLessThanOrEqual(issue.placementLots);
      const rank = row.listed_at !== null ? 3 : row.settled_at !== null ? 2 : row.drawn_at !== null ? 1 : 0;
      expect(rank, `${row.code} marks never go back`).toBeGreaterThanOrEqual(issueRank.get(row.code) ?? 0);
      issueRank.set(row.code, rank);
      if (row.drawn_at !== null) {
        expect(num(row.winners_count)).toBe(Math.min(issue.onlineLots, num(row.numbers_count)));
        expect(lottery.reduce((s, x) => s + num(x.won_lots), 0)).toBe(num(row.winners_count));
        expect(lottery.filter((s) => s.state === 'subscribed')).toEqual([]);
      } else {
        expect(lottery.filter((s) => s.state !== 'subscribed')).toEqual([]);
      }
      if (row.settled_at !== null) expect(lottery.filter((s) => s.state === 'winning')).toEqual([]);
      if (row.listed_at !== null)
        expect(subs.filter((s) => s.code === row.code && s.state === 'paid')).toEqual([]);
    }
  }

  async function checkUser(um: UserModel): Promise<void> {
    const app = station.app.db;
    const userId = um.user.user.id;
    const { startingBalances } = station.config.settings;
    const accounts = await accountRows(userId);
    const entries = await app
      .selectFrom('ledger_entries')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
    const positions = await app.selectFrom('positions').selectAll().where('user_id', '=', userId).execute();
    const pending = await app
      .selectFrom('orders')
      .select(['account_id', 'frozen'])
      .where('user_id', '=', userId)
      .where('status', '=', 'pending')
      .execute();
    const subs = await app
      .selectFrom('newshare_subscriptions')
      .selectAll()
      .where('user_id', '=', userId)
      .execute();
    const trades = await app.selectFrom('fund_trades').selectAll().where('user_id', '=', userId).execute();
    const holdings = await app
      .selectFrom('fund_holdings')
      .selectAll()
      .where('user_id', '=', userId)
      .execute();
    const allocations = await app
      .selectFrom('allocations')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
    const accountOf = (type: string) => accounts.find((a) => a.type === type);
    const main = accountOf('main')!;
    const newstock = accountOf('newstock')!;
    const sub = accountOf(SUB_ACCOUNT_TYPE);
    const sum = (list: readonly { amount: number }[]) => list.reduce((s, e) => s + num(e.amount), 0);
    const typed = (list: readonly { type: string; amount: number }[], type: string) =>
      sum(list.filter((e) => e.type === type));

    // Each account: its entries run up to each balance_after and to the balance; available ≥ 0; frozen is
    // what pending orders hold.
    for (const account of accounts) {
      let running = 0;
      for (const e of entries.filter((x) => x.account_id === account.id)) {
        running += num(e.amount);
        expect(num(e.balance_after), `entry ${e.id} (${e.type}) balance after`).toBe(running);
      }
      expect(num(account.balance), `${account.type} = Σ its entries`).toBe(running);
      expect(
        num(account.balance) - num(account.frozen),
        `available of ${account.type}`,
      ).toBeGreaterThanOrEqual(0);
      const held = pending.filter((o) => o.account_id === account.id).reduce((s, o) => s + num(o.frozen), 0);
      expect(num(account.frozen), `frozen of ${account.type}`).toBe(held);
    }
    for (const e of entries) expect(KNOWN_TYPES.has(e.type), `entry type ${e.type}`).toBe(true);

    // Opening balances; HK and US untouched (nothing here trades or converts there).
    for (const type of ['main', 'index', 'newstock', 'hk', 'us'] as const) {
      const account = accountOf(type)!;
      const own = entries.filter((e) => e.account_id === account.id);
      expect(typed(own, 'opening_balance'), `opening ${type}`).toBe(toMinor(startingBalances[type]));
      if (type === 'hk' || type === 'us') expect(num(account.balance)).toBe(toMinor(startingBalances[type]));
    }
    // Transfers create nothing; newstock holds what the model moved there.
    expect(typed(entries, 'transfer_in') + typed(entries, 'transfer_out'), 'transfers net to zero').toBe(0);
    const newstockEntries = entries.filter((e) => e.account_id === newstock.id);
    expect(typed(newstockEntries, 'transfer_in') + typed(newstockEntries, 'transfer_out')).toBe(
      um.newstockNet,
    );

    // Subscriptions: their entries, amounts and listed positions.
    const byRef = (refType: string, refId: number) =>
      entries.filter((e) => e.ref_type === refType && e.ref_id === refId);
    const positionById = new Map(positions.map((p) => [p.id, p]));
    const fromSubscription = new Map<number, number>();
    for (const s of subs) {
      const issue = byCode.get(s.code)!;
      const paidEntries = byRef('newshare', s.id);
      expect(
        paidEntries.every((e) => e.type === 'buy' && e.account_id === newstock.id),
        `subscription ${s.id} paid from newstock`,
      ).toBe(true);
      expect(sum(paidEntries), `subscription ${s.id} entries = −amount paid`).toBe(neg(num(s.amount_paid)));
      const paid = s.state === 'paid' || s.state === 'listed';
      expect(num(s.amount_paid), `subscription ${s.id} (${s.state}) amount paid`).toBe(
        paid ? num(s.amount_due) : 0,
      );
      if (s.won_lots !== null) {
        const price = s.kind === 'placement' ? issue.placementPrice : issue.issuePrice;
        // As the station computes it: a draw prices won lots × 100, a placement its shares.
        const due = s.kind === 'placement' ? price * (num(s.won_lots) * 100) : price * num(s.won_lots) * 100;
        expect(num(s.amount_due)).toBe(toMinor(due));
      }
      if (s.state === 'listed') {
        const p = positionById.get(s.position_id!)!;
        expect(p, `subscription ${s.id} listed as a position`).toBeDefined();
        expect(p).toMatchObject({ account_id: newstock.id, code: s.code, leverage: 1, split_from: null });
        expect(p.open_price).toBe(s.price);
        const chain = positions.filter((x) => x.id === p.id || x.split_from === p.id);
        expect(chain.reduce((n, x) => n + x.lots, 0)).toBe(num(s.won_lots));
        expect(
          chain.reduce((n, x) => n + num(x.margin), 0),
          `listed ${s.id} margin`,
        ).toBe(num(s.amount_paid));
        fromSubscription.set(p.id, num(s.amount_paid));
      } else {
        expect(s.position_id).toBeNull();
      }
    }

    // Positions: each chain (a position and its split-off closed parts) is explained by its records.
    const chains = new Map<number, typeof positions>();
    for (const p of positions) {
      const root = p.split_from ?? p.id;
      chains.set(root, [...(chains.get(root) ?? []), p]);
    }
    const rootOf = new Map(positions.map((p) => [p.id, p.split_from ?? p.id]));
    const positionEntries = entries.filter((e) => e.ref_type === 'position');
    for (const e of positionEntries) {
      expect(POSITION_TYPES.has(e.type), `position entry type ${e.type}`).toBe(true);
      const p = positionById.get(e.ref_id!);
      expect(p, `entry ${e.id} refers to a position of the user`).toBeDefined();
      expect(e.account_id).toBe(p!.account_id);
    }
    const pnlOf = (p: (typeof positions)[number]) =>
      p.direction === 'long'
        ? num(p.close_value) - num(p.open_value)
        : num(p.open_value) - num(p.close_value);
    const feesOf = (p: (typeof positions)[number]) =>
      num(p.buy_fee) + num(p.sell_fee) + num(p.stamp_duty) + num(p.deferred_fee);
    for (const [root, chain] of chains) {
      const actual = sum(positionEntries.filter((e) => rootOf.get(e.ref_id!) === root));
      const expected =
        chain.reduce((s, p) => s + (p.state === 'open' ? -num(p.margin) : pnlOf(p)) - feesOf(p), 0) +
        (fromSubscription.get(root) ?? 0);
      expect(actual, `position ${root} entries explained by its records`).toBe(expected);
      expect(chain.filter((p) => p.state === 'open').length).toBeLessThanOrEqual(1);
    }

    // Funds: each trade's entry; holdings = Σ bought − Σ sold units, at the model's cost.
    const fundEntries = entries.filter((e) => e.type === 'fund_buy' || e.type === 'fund_sell');
    expect(fundEntries.every((e) => e.ref_type === 'fund_trade' && e.account_id === main.id)).toBe(true);
    for (const t of trades) {
      const own = byRef('fund_trade', t.id);
      const amount = num(t.amount);
      if (t.side === 'buy')
        expect(own.map((e) => [e.type, num(e.amount)])).toEqual([['fund_buy', neg(amount)]]);
      else expect(own.map((e) => [e.type, num(e.amount)])).toEqual(amount > 0 ? [['fund_sell', amount]] : []);
    }
    expect(fundEntries.length).toBe(trades.filter((t) => t.side === 'buy' || num(t.amount) > 0).length);
    for (const code of FUND_CODES) {
      const units = trades
        .filter((t) => t.fund_code === code)
        .reduce((s, t) => s + (t.side === 'buy' ? num(t.units) : -num(t.units)), 0);
      const holding = holdings.find((h) => h.fund_code === code);
      expect(num(holding?.units), `${code} units held`).toBe(units);
      if (units === 0) expect(holding).toBeUndefined();
      const expected = um.funds.get(code) ?? { units: 0, cost: 0 };
      expect(
        { units: num(holding?.units), cost: num(holding?.cost) },
        `${code} as the model expects`,
      ).toEqual(expected);
    }

    // Allocations: each one's entries, fees and settlement; one active at most; an idle sub-account is empty.
    const allocationEntries = entries.filter((e) => e.ref_type === 'allocation');
    const allocationIds = new Set(allocations.map((a) => a.id));
    expect(allocationEntries.every((e) => allocationIds.has(e.ref_id!))).toBe(true);
    expect(
      allocationEntries.every(
        (e) => e.account_id === main.id || (sub !== undefined && e.account_id === sub.id),
      ),
    ).toBe(true);
    const allocationTypes = new Set([
      'allocation_margin',
      'allocation_credit',
      'management_fee',
      'allocation_repay',
      'allocation_return',
    ]);
    expect(entries.filter((e) => allocationTypes.has(e.type)).length).toBe(allocationEntries.length);
    let repaid = 0;
    for (const a of allocations) {
      const own = byRef('allocation', a.id);
      const onMain = own.filter((e) => e.account_id === main.id);
      const onSub = own.filter((e) => e.account_id !== main.id);
      const margin = num(a.margin);
      const allocated = num(a.allocated);
      const started = a.started_at !== null;
      const label = `allocation ${a.id} (${a.status}, ${a.end_reason ?? '-'})`;
      expect(allocated, label).toBe(margin * a.multiple);
      expect(typed(onMain, 'allocation_margin'), `${label} margin left main`).toBe(neg(margin));
      expect(typed(onSub, 'allocation_margin'), `${label} margin in the sub-account`).toBe(
        started ? margin : 0,
      );
      expect(typed(onSub, 'allocation_credit'), `${label} allocated`).toBe(started ? allocated : 0);
      expect(typed(onSub, 'management_fee'), `${label} fees`).toBe(neg(num(a.fees_charged)));
      expect(a.fee_days).toBeLessThanOrEqual(a.days);
      // Each day's fee is charged at its close: by the end, every close before it; while trading, every
      // close the engine has handled (and none ahead of the clock).
      if (started && a.end_reason !== 'rejected') {
        const closes = (until: number) => {
          let n = 0;
          while (n < a.days && closeOfTradingDay(station.app.station, a.started_at!, n + 1) <= until) n++;
          return n;
        };
        if (a.status === 'trading') {
          expect(a.fee_days, `${label} fee days`).toBeGreaterThanOrEqual(closes(lastStep));
          expect(a.fee_days, `${label} fee days`).toBeLessThanOrEqual(closes(now()));
        } else {
          expect(a.fee_days, `${label} every close's fee before its end`).toBe(closes(a.ended_at!));
        }
      }
      const repay = typed(onSub, 'allocation_repay');
      repaid -= repay;
      if (a.status === 'review') {
        expect(own.length, label).toBe(1);
        expect(a.returned).toBeNull();
      } else if (a.status === 'trading') {
        expect(a.account_id, label).toBe(sub?.id);
        expect(num(a.fees_charged) + num(a.fees_owed), `${label} fee days`).toBe(
          num(a.daily_fee) * a.fee_days,
        );
        expect(own.filter((e) => e.type === 'allocation_return' || e.type === 'allocation_repay')).toEqual(
          [],
        );
      } else if (a.end_reason === 'rejected') {
        expect(started, label).toBe(false);
        expect(num(a.returned)).toBe(margin);
        expect(typed(onMain, 'allocation_return'), `${label} margin back`).toBe(margin);
        expect(onSub).toEqual([]);
      } else {
        const returned = num(a.returned);
        expect(started, label).toBe(true);
        expect(num(a.fees_owed), label).toBe(0);
        expect(repay, `${label} repays at most the allocated funds`).toBeGreaterThanOrEqual(-allocated);
        expect(repay).toBeLessThanOrEqual(0);
        if (returned > 0)
          expect(repay, `${label} repays in full when anything is returned`).toBe(neg(allocated));
        expect(typed(onSub, 'allocation_return'), `${label} returned from the sub-account`).toBe(
          neg(returned),
        );
        expect(typed(onMain, 'allocation_return'), `${label} returned to main`).toBe(returned);
        if (a.status === 'expired') expect(a.fee_days, `${label} every day's fee`).toBe(a.days);
      }
    }
    const active = allocations.filter((a) => a.status === 'review' || a.status === 'trading');
    expect(active.length, 'one active allocation at most').toBeLessThanOrEqual(1);
    if (sub && !allocations.some((a) => a.status === 'trading')) {
      expect(num(sub.balance), 'an idle sub-account is empty').toBe(0);
      expect(positions.filter((p) => p.account_id === sub.id && p.state === 'open')).toEqual([]);
    }

    // Conservation (CNY), every term but the repayments read off the product tables.
    const cny = accounts.filter((a) => a.currency === 'CNY');
    expect(positions.every((p) => cny.some((a) => a.id === p.account_id))).toBe(true);
    const balances = cny.reduce((s, a) => s + num(a.balance), 0);
    const starting = CNY_TYPES.reduce((s, t) => s + toMinor(startingBalances[t]), 0);
    const openMargin = positions.filter((p) => p.state === 'open').reduce((s, p) => s + num(p.margin), 0);
    const realized = positions.filter((p) => p.state === 'closed').reduce((s, p) => s + pnlOf(p), 0);
    const tradingFees = positions.reduce((s, p) => s + feesOf(p), 0);
    const awaitingListing = subs
      .filter((s) => s.state === 'paid')
      .reduce((s, x) => s + num(x.amount_paid), 0);
    const fundNet = trades.reduce((s, t) => s + (t.side === 'sell' ? num(t.amount) : -num(t.amount)), 0);
    const underReview = allocations
      .filter((a) => a.status === 'review')
      .reduce((s, a) => s + num(a.margin), 0);
    const lent = allocations.filter((a) => a.started_at !== null).reduce((s, a) => s + num(a.allocated), 0);
    const managementFees = allocations.reduce((s, a) => s + num(a.fees_charged), 0);
    expect(
      balances,
      JSON.stringify({
        starting,
        openMargin,
        realized,
        tradingFees,
        awaitingListing,
        fundNet,
        underReview,
        lent,
        repaid,
        managementFees,
      }),
    ).toBe(
      starting -
        openMargin +
        realized -
        tradingFees -
        awaitingListing +
        fundNet -
        underReview +
        lent -
        repaid -
        managementFees,
    );

    // States only move forward; the model follows.
    const closedIds = new Set(positions.filter((p) => p.state === 'closed').map((p) => p.id));
    for (const id of um.closed) expect(closedIds.has(id), `position ${id} stays closed`).toBe(true);
    for (const p of positions) {
      if (p.state === 'open') um.open.add(p.id);
      else {
        um.open.delete(p.id);
        um.closed.add(p.id);
      }
    }
    const views =
      subs.length === 0
        ? []
        : data(
            await um.user.client.get<Page<NewShareSubscription>>('/user/getOneSubscribeByUserId.do', {
              pageSize: 100,
            }),
          ).list;
    for (const s of subs) {
      const state: SubscriptionState =
        s.state === 'listed' && s.position_id !== null && closedIds.has(s.position_id) ? 'closed' : s.state;
      expect(views.find((v) => v.id === s.id)?.state, `subscription ${s.id} as the user sees it`).toBe(state);
      const before = um.subs.get(s.id);
      expect(before, `subscription ${s.id} made by a command the model saw`).toBeDefined();
      expect(
        reachable(SUBSCRIPTION_NEXT, before!.state, state),
        `subscription ${s.id}: ${before!.state} → ${state}`,
      ).toBe(true);
      before!.state = state;
    }
    for (const a of allocations) {
      const before = um.allocations.get(a.id);
      expect(before, `allocation ${a.id} made by a command the model saw`).toBeDefined();
      expect(
        reachable(ALLOCATION_NEXT, before!, a.status),
        `allocation ${a.id}: ${before} → ${a.status}`,
      ).toBe(true);
      um.allocations.set(a.id, a.status);
    }
  }

  // ---------------------------------------------------------------------------------------------------
  // Commands

  /**
   * The instant a clock move goes to: 0 the nearest event of any kind; 1 the next subscription window;
   * 2, 3, 4 the next draw, payment deadline, listing of an issue the run's users subscribed to (of any issue
   * if none is ahead); 5 the next 00:00 UTC (the always-open close: management fees and expiry).
   */
  function eventTime(t: number, target: number, users: readonly UserModel[]): number {
    const mine = new Set(users.flatMap((um) => [...um.subs.values()].map((s) => s.code)));
    const next = (times: number[]) => times.filter((x) => x > t).sort((a, b) => a - b)[0];
    const ofIssues = (pickTime: (i: CalendarIssue) => number) =>
      next(calendar.filter((i) => mine.has(i.code)).map(pickTime)) ?? next(calendar.map(pickTime));
    const midnight = (Math.floor(t / DAY) + 1) * DAY;
    switch (target) {
      case 1:
        return next(calendar.map((i) => i.subscribeOpensAt)) ?? midnight;
      case 2:
        return ofIssues((i) => i.drawAt) ?? midnight;
      case 3:
        return ofIssues((i) => i.payDeadline) ?? midnight;
      case 4:
        return ofIssues((i) => i.listingAt) ?? midnight;
      case 5:
        return midnight;
      default: {
        const times = calendar.flatMap((i) => [
          i.subscribeOpensAt,
          i.subscribeClosesAt,
          i.drawAt,
          i.payDeadline,
          i.listingAt,
        ]);
        // 09:30 and 15:00 in Shanghai: the VIP and block-trade windows.
        const day = Math.floor(t / DAY) * DAY;
        times.push(midnight, day + 1.5 * HOUR, day + 7 * HOUR, day + DAY + 1.5 * HOUR);
        return next(times) ?? midnight;
      }
    }
  }

  async function allocationTerms(um: UserModel) {
    const types = data(await um.user.client.get<AllocationType[]>('/user/funds/getFundsTypeList.do'));
    const setting = data(await um.user.client.get<AllocationSetting>('/user/funds/getFundsSetting.do'));
    return { types, setting };
  }

  async function openPositions(userId: number, accountTypes: readonly string[]) {
    const ids = (await accountRows(userId)).filter((a) => accountTypes.includes(a.type)).map((a) => a.id);
    if (ids.length === 0) return [];
    return station.app.db
      .selectFrom('positions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('account_id', 'in', ids)
      .where('state', '=', 'open')
      .orderBy('id')
      .execute();
  }

  async function latestAllocation(userId: number) {
    const rows = await station.app.db
      .selectFrom('allocations')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .execute();
    return rows.find((r) => r.status === 'trading') ?? rows[0];
  }

  const grantVip = async (userId: number, grant: boolean) => {
    const known = await runOperatorCommand(
      station.app.station,
      grant ? 'grant' : 'revoke',
      [String(userId), 'vip_picks', '--reason', 'model test'],
      () => {},
      'tester',
    );
    expect(known).toBe(true);
  };

  async function badInput(um: UserModel, other: UserModel, variant: number): Promise<ApiResponse<unknown>> {
    const c = um.user.client;
    const requestId = newRequestId();
    const issue =
      calendar.find((i) => i.subscribeOpensAt <= now() && now() < i.subscribeClosesAt) ?? calendar[0]!;
    const otherSub = [...other.subs.keys()][0] ?? 2_000_000_000;
    const otherPositions = await openPositions(other.user.user.id, ['main', 'newstock', SUB_ACCOUNT_TYPE]);
    const otherAllocation = [...other.allocations.keys()][0] ?? 2_000_000_000;
    const mine = (await latestAllocation(um.user.user.id))?.id ?? 2_000_000_000;
    const offer = data(await anon().get<BlockTradeOffer[]>('/api/stock/getDzList.do'))[0];
    switch (variant) {
      case 0:
        return c.post('/user/add.do', { code: issue.code, lots: 0, requestId });
      case 1:
        return c.post('/user/add.do', { code: issue.code, lots: 'x', requestId });
      case 2:
        return c.post('/user/add.do', { code: '999999', lots: 1, requestId });
      case 3:
        return c.post('/user/submitSubscribe.do', { id: 'abc', requestId });
      case 4:
        return c.post('/user/submitSubscribe.do', { id: otherSub, requestId });
      case 5:
        return c.post('/user/buyStockDz.do', { code: offer?.code ?? '600000', lots: 101, requestId });
      case 6:
        return c.post('/user/buyStockDz.do', {
          code: offer?.code ?? '600000',
          lots: offer?.minLots ?? 10,
          leverage: 7,
          requestId,
        });
      case 7:
        return c.post('/user/buyVipQc.do', { code: '000000', lots: 1, requestId });
      case 8:
        return c.post('/user/fund/buy.do', { code: '110011', amount: '-1', requestId });
      case 9:
        return c.post('/user/fund/buy.do', { code: '110011', amount: '10.001', requestId });
      case 10:
        return c.post('/user/fund/buy.do', { code: '999999', amount: 100, requestId });
      case 11:
        return c.post('/user/fund/sell.do', { code: '110011', units: 0.001, requestId });
      case 12:
        return c.post('/user/funds/addFundsApply.do', {
          typeCode: 'days',
          margin: 10_050,
          multiple: 2,
          days: 2,
          requestId,
        });
      case 13:
        return c.post('/user/funds/addFundsApply.do', {
          typeCode: 'days',
          margin: 10_000,
          multiple: 7,
          days: 31,
          requestId,
        });
      case 14:
        return c.post('/user/funds/addFundsApply.do', {
          typeCode: 'weeks',
          margin: 10_000,
          multiple: 2,
          days: 2,
          requestId,
        });
      case 15:
        return c.post('/user/funds/buyFunds.do', { applyId: mine, code: '00700', lots: 1, requestId });
      case 16:
        return c.post('/user/funds/sellFunds.do', {
          applyId: mine,
          positionId: otherPositions[0]?.id ?? 2_000_000_000,
          requestId,
        });
      case 17:
        return c.post('/user/funds/endFundsApply.do', { applyId: otherAllocation, requestId });
      case 18:
        return c.post('/user/transAmt.do', { amount: -5, from: 'main', to: 'newstock', requestId });
      default:
        return c.post('/user/buyNewStockQc.do', { code: issue.code, lots: 0, requestId });
    }
  }

  /**
   * The user a command acts for: among the users for whom it can do something (a winning subscription to
   * pay, a trading allocation to trade in…) if any, else the drawn one (then it is mostly refused).
   */
  async function chooser(
    users: UserModel[],
    index: number,
    can: (um: UserModel) => boolean | Promise<boolean>,
  ): Promise<UserModel> {
    const able: UserModel[] = [];
    for (const um of users) if (await can(um)) able.push(um);
    return actAs(able[index % Math.max(1, able.length)] ?? users[index]!);
  }

  /** The users a command acted for: only their records can change (clock moves: everyone's). */
  const touched = new Set<UserModel>();
  const actAs = (um: UserModel) => {
    touched.add(um);
    return um;
  };

  const trading = (um: UserModel) => [...um.allocations.values()].includes('trading');

  async function run(users: UserModel[], cmd: Command): Promise<Outcome> {
    const none: Outcome = { res: null, expected: null };
    const t = now();
    switch (cmd.kind) {
      case 'transfer': {
        const um = actAs(users[cmd.who]!);
        const from = cmd.toNewstock ? 'main' : 'newstock';
        const to = cmd.toNewstock ? 'newstock' : 'main';
        const enough = (await available(um.user.user.id, from)) >= cmd.cents;
        const res = await um.user.client.post('/user/transAmt.do', {
          amount: cmd.cents / 100,
          from,
          to,
          requestId: newRequestId(),
        });
        if (res.body.status === 0) um.newstockNet += cmd.toNewstock ? cmd.cents : -cmd.cents;
        return { res, expected: enough ? ['OK'] : ['INSUFFICIENT_FUNDS'] };
      }
      case 'subscribe':
      case 'placement': {
        const um = actAs(users[cmd.who]!);
        const subscribing = (at: number) =>
          calendar.filter((i) => i.subscribeOpensAt <= at && at < i.subscribeClosesAt);
        // Mostly the user waits for the next subscription window (the clock moves there and the engine
        // steps); else it subscribes now, refused outside every window.
        const next = calendar.find((i) => i.subscribeOpensAt > t);
        const waits = cmd.wait && subscribing(t).length === 0 && next !== undefined;
        if (waits) await stepTo(Math.min(next.subscribeOpensAt + cmd.pick * 7 * MINUTE, runEnd));
        const at = now();
        // The engine stepped: the refusal check compares with the tables after that.
        const before = waits ? await writes() : undefined;
        const open = subscribing(at);
        const issue =
          open[cmd.pick % Math.max(1, open.length)] ?? calendar.find((i) => i.subscribeOpensAt > at);
        if (!issue) return none;
        const lots =
          cmd.frac > 1 ? issue.perUserCap + 1 : Math.max(1, Math.ceil(cmd.frac * issue.perUserCap));
        const kind = cmd.kind === 'subscribe' ? 'lottery' : 'placement';
        const already = [...um.subs.values()].some((s) => s.code === issue.code && s.kind === kind);
        let expected: Expected;
        if (lots > issue.perUserCap) expected = ['VALIDATION'];
        else if (!open.includes(issue)) expected = ['OUTSIDE_TRADING_HOURS'];
        else if (kind === 'lottery') expected = already ? ['ALREADY_DONE'] : ['OK'];
        else {
          const row = await station.app.db
            .selectFrom('newshare_issues')
            .select('placement_sold')
            .where('code', '=', issue.code)
            .executeTakeFirst();
          const left = issue.placementLots - num(row?.placement_sold);
          const cost = toMinor(issue.placementPrice * (lots * 100));
          if (lots > left) expected = ['ABOVE_MAXIMUM'];
          else if (already) expected = ['ALREADY_DONE'];
          else if ((await available(um.user.user.id, 'newstock')) < cost) expected = ['INSUFFICIENT_FUNDS'];
          else expected = ['OK'];
        }
        const res = await um.user.client.post<NewShareSubscription>(
          kind === 'lottery' ? '/user/add.do' : '/user/buyNewStockQc.do',
          { code: issue.code, lots, requestId: newRequestId() },
        );
        return {
          res,
          expected,
          ...(before ? { before } : {}),
          verify: () => {
            const s = data(res);
            um.subs.set(s.id, { code: s.code, kind, state: s.state });
            expect(s).toMatchObject({ code: issue.code, kind, lots, shares: lots * 100 });
            if (kind === 'lottery') {
              expect(s).toMatchObject({ state: 'subscribed', wonLots: null, amountPaid: 0 });
              expect(s.lastNumber! - s.firstNumber!).toBe(lots - 1);
            } else {
              expect(s).toMatchObject({ state: 'paid', wonLots: lots, price: issue.placementPrice });
              expect(toMinor(s.amountPaid)).toBe(toMinor(issue.placementPrice * (lots * 100)));
            }
          },
        };
      }
      case 'pay': {
        const um = await chooser(users, cmd.who, (u) =>
          [...u.subs.values()].some((x) => x.state === 'winning'),
        );
        const ids = [...um.subs.entries()]
          .filter(([, s]) => cmd.anyState || s.state === 'winning')
          .map(([id]) => id);
        const id = ids[cmd.pick % Math.max(1, ids.length)];
        if (id === undefined) return none;
        const row = await station.app.db
          .selectFrom('newshare_subscriptions')
          .selectAll()
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        const issue = byCode.get(row.code)!;
        const cash = await available(um.user.user.id, 'newstock');
        const expected =
          row.state !== 'winning' || t >= issue.payDeadline
            ? ['ALREADY_DONE']
            : cash < num(row.amount_due)
              ? ['INSUFFICIENT_FUNDS']
              : ['OK'];
        const res = await um.user.client.post<NewShareSubscription>('/user/submitSubscribe.do', {
          id,
          requestId: newRequestId(),
        });
        return {
          res,
          expected,
          verify: () => {
            const s = data(res);
            expect(s).toMatchObject({ id, state: 'paid', paidAt: t });
            expect(toMinor(s.amountPaid)).toBe(num(row.amount_due));
          },
        };
      }
      case 'sell': {
        const um = await chooser(
          users,
          cmd.who,
          async (u) => (await openPositions(u.user.user.id, ['main', 'newstock'])).length > 0,
        );
        const open = await openPositions(um.user.user.id, ['main', 'newstock']);
        const p = open[cmd.pick % Math.max(1, open.length)];
        if (!p) return none;
        const lots = Math.max(1, Math.round(p.lots * cmd.part));
        const res = await um.user.client.post<Position>('/user/sell.do', {
          positionId: p.id,
          ...(lots < p.lots ? { lots } : {}),
          requestId: newRequestId(),
        });
        return { res, expected: t < p.sellable_from ? ['T_PLUS_ONE'] : null };
      }
      case 'blockTrade': {
        const um = actAs(users[cmd.who]!);
        const offers = data(await anon().get<BlockTradeOffer[]>('/api/stock/getDzList.do'));
        const offer = offers[cmd.pick % Math.max(1, offers.length)];
        if (!offer) return none;
        const lots = offer.minLots + cmd.extra;
        const value = toMinor(offer.price * (lots * offer.lotSize));
        const margin = Math.ceil(value / cmd.leverage);
        const cash = await available(um.user.user.id, 'main');
        let expected: Expected = null;
        if (lots < offer.minLots) expected = ['BELOW_MINIMUM'];
        else if (!offer.leverages.includes(cmd.leverage)) expected = ['VALIDATION'];
        else if (t < offer.opensAt || t >= offer.closesAt) expected = ['OUTSIDE_TRADING_HOURS'];
        else if (cash >= margin + Math.ceil(value * 0.002) + 2_000) expected = ['OK', 'SUSPENDED'];
        else if (cash < margin) expected = ['INSUFFICIENT_FUNDS', 'SUSPENDED'];
        const res = await um.user.client.post<BlockTradeRecord>('/user/buyStockDz.do', {
          code: offer.code,
          lots,
          ...(cmd.leverage === 1 ? {} : { leverage: cmd.leverage }),
          requestId: newRequestId(),
        });
        return {
          res,
          expected,
          verify: () => {
            const r = data(res);
            expect(r).toMatchObject({ code: offer.code, lots, price: offer.price, leverage: cmd.leverage });
            expect(r.position).toMatchObject({ openPrice: offer.price, lots, leverage: cmd.leverage });
            expect(toMinor(r.amount)).toBe(value);
            expect(toMinor(r.position.margin)).toBe(margin);
            expect(r.position.sellableFrom, 'a block trade is T+1').toBeGreaterThan(t);
          },
        };
      }
      case 'vip': {
        // Mostly a user with the VIP permission; a quarter of the time anyone (without it: NO_PERMISSION).
        const um = cmd.anyone ? actAs(users[cmd.who]!) : await chooser(users, cmd.who, (u) => u.vip);
        const picks = data(await anon().get<VipPick[]>('/api/stock/getVipList.do'));
        const pick = picks[cmd.pick % Math.max(1, picks.length)];
        if (!pick) return none;
        const lots =
          cmd.frac > 1 ? pick.maxLotsPerUser + 1 : Math.max(1, Math.ceil(cmd.frac * pick.maxLotsPerUser));
        const taken = (
          await station.app.station.db
            .selectFrom('vip_buys')
            .select('lots')
            .where('pick_id', '=', pick.id)
            .where('user_id', '=', um.user.user.id)
            .execute()
        ).reduce((s, b) => s + num(b.lots), 0);
        const value = toMinor(pick.price * (lots * pick.lotSize));
        const cash = await available(um.user.user.id, 'main');
        let expected: Expected = null;
        if (!um.vip) expected = ['NO_PERMISSION'];
        else if (lots > pick.maxLotsPerUser) expected = ['VALIDATION'];
        else if (t < pick.opensAt || t >= pick.closesAt) expected = ['OUTSIDE_TRADING_HOURS'];
        else if (pick.remainingLots <= 0) expected = ['SOLD_OUT'];
        else if (taken + lots > pick.maxLotsPerUser) expected = ['ABOVE_MAXIMUM', 'SUSPENDED'];
        else if (cash < value) expected = ['INSUFFICIENT_FUNDS', 'SUSPENDED'];
        else if (lots > pick.remainingLots) expected = ['ABOVE_MAXIMUM', 'SUSPENDED'];
        else if (cash >= value + Math.ceil(value * 0.002) + 2_000) expected = ['OK', 'SUSPENDED'];
        const res = await um.user.client.post<VipPurchase>('/user/buyVipQc.do', {
          code: pick.code,
          lots,
          requestId: newRequestId(),
        });
        return {
          res,
          expected,
          verify: () => {
            const r = data(res);
            expect(r).toMatchObject({ pickId: pick.id, code: pick.code, lots, price: pick.price });
            expect(r.position).toMatchObject({ openPrice: pick.price, leverage: 1, lots });
            expect(r.position.sellableFrom, 'a VIP pick is T+1').toBeGreaterThan(t);
          },
        };
      }
      case 'permission': {
        const um = users[2]!;
        await grantVip(um.user.user.id, cmd.grant);
        um.vip = cmd.grant;
        return none;
      }
      case 'fundBuy': {
        const um = actAs(users[cmd.who]!);
        const fund = (await fundList()).get(FUND_CODES[cmd.fund]!)!;
        const amount = cmd.cents;
        const cash = await available(um.user.user.id, 'main');
        const expected =
          amount < toMinor(fund.minPurchase)
            ? ['BELOW_MINIMUM']
            : cash < amount
              ? ['INSUFFICIENT_FUNDS']
              : ['OK'];
        const res = await um.user.client.post<FundTrade>('/user/fund/buy.do', {
          code: fund.code,
          amount: amount / 100,
          requestId: newRequestId(),
        });
        return {
          res,
          expected,
          verify: () => {
            const trade = data(res);
            const fee = applyRate(amount, fund.purchaseFeeRate);
            const units = Math.floor(((amount - fee) / 100 / fund.nav) * 100 + 1e-9);
            expect(trade).toMatchObject({ side: 'buy', code: fund.code, nav: fund.nav });
            expect([toMinor(trade.amount), toMinor(trade.fee), Math.round(trade.units * 100)]).toEqual([
              amount,
              fee,
              units,
            ]);
            const held = um.funds.get(fund.code) ?? { units: 0, cost: 0 };
            um.funds.set(fund.code, { units: held.units + units, cost: held.cost + amount });
          },
        };
      }
      case 'fundSell': {
        const um = await chooser(users, cmd.who, (u) => u.funds.size > 0);
        // Mostly a fund the user holds (a fifth of the time any fund, mostly refused then).
        const heldCodes = [...um.funds.keys()];
        const code =
          cmd.fund === 0 || heldCodes.length === 0
            ? FUND_CODES[cmd.fund]!
            : heldCodes[cmd.fund % heldCodes.length]!;
        const fund = (await fundList()).get(code)!;
        const held = um.funds.get(fund.code) ?? { units: 0, cost: 0 };
        const units =
          held.units === 0 || cmd.part > 1 ? held.units + 1 : Math.max(1, Math.floor(held.units * cmd.part));
        const res = await um.user.client.post<FundTrade>('/user/fund/sell.do', {
          code: fund.code,
          units: units / 100,
          requestId: newRequestId(),
        });
        return {
          res,
          expected: units > held.units ? ['ABOVE_MAXIMUM'] : ['OK'],
          verify: () => {
            const trade = data(res);
            const gross = toMinor((units / 100) * fund.nav);
            const fee = applyRate(gross, fund.redeemFeeRate);
            expect(trade).toMatchObject({ side: 'sell', code: fund.code, nav: fund.nav });
            expect([toMinor(trade.amount), toMinor(trade.fee), Math.round(trade.units * 100)]).toEqual([
              gross - fee,
              fee,
              units,
            ]);
            if (units === held.units) um.funds.delete(fund.code);
            else {
              const costPart = Math.round((held.cost * units) / held.units);
              um.funds.set(fund.code, { units: held.units - units, cost: held.cost - costPart });
            }
          },
        };
      }
      case 'apply': {
        const um = actAs(users[cmd.who]!);
        const { types, setting } = await allocationTerms(um);
        const type = types[cmd.months ? 1 : 0]!;
        const multiple = type.multiples[cmd.multiple] ?? 7;
        const days = type.minDays + cmd.days;
        const margin = cmd.hundreds * 100;
        const activeNow = [...um.allocations.values()].some((s) => s === 'review' || s === 'trading');
        const cash = await available(um.user.user.id, 'main');
        const expected = !type.multiples.includes(multiple)
          ? ['VALIDATION']
          : margin < setting.minMargin
            ? ['BELOW_MINIMUM']
            : activeNow
              ? ['ALREADY_DONE']
              : cash < toMinor(margin)
                ? ['INSUFFICIENT_FUNDS']
                : ['OK'];
        // A quarter of the applications under tight lines (the operator's setting, stored with each
        // application, as funds-allocation.test.ts does): R starts at 1 + 1/multiple, just above them, so
        // those are warned and liquidated within the run.
        const { settings } = station.config;
        const lines = { warning: settings.warningLine, liquidation: settings.liquidationLine };
        if (cmd.tight) {
          // Just under where the allocation starts: every multiple offered starts strictly above its
          // warning line (DOMAIN.md), and a small move warns and liquidates it.
          settings.warningLine = Number((1 + 1 / multiple - 0.001).toFixed(4));
          settings.liquidationLine = Number((settings.warningLine - 0.005).toFixed(4));
        }
        const res = await um.user.client
          .post<Allocation>('/user/funds/addFundsApply.do', {
            typeCode: type.code,
            margin,
            multiple,
            days,
            requestId: newRequestId(),
          })
          .finally(() => {
            settings.warningLine = lines.warning;
            settings.liquidationLine = lines.liquidation;
          });
        return {
          res,
          expected,
          verify: () => {
            const a = data(res);
            expect(a).toMatchObject({
              status: 'review',
              margin,
              multiple,
              days,
              allocated: margin * multiple,
            });
            um.allocations.set(a.id, 'review');
          },
        };
      }
      case 'decide': {
        const um = await chooser(users, cmd.who, (u) => [...u.allocations.values()].includes('review'));
        const id = [...um.allocations.entries()].find(([, s]) => s === 'review')?.[0];
        if (id === undefined) return none;
        const before = await writes();
        const decided = await decideAllocationByOperator(
          station.app.station,
          id,
          cmd.approve ? 'approve' : 'reject',
          'tester',
          'model test',
        ).catch((error: unknown) => error);
        if (decided instanceof AppError) {
          expect(decided.code).toBe('ALREADY_DONE');
          expect(await writes()).toEqual(before);
          throw new Error(`allocation ${id} was under review but the operator could not decide it`);
        }
        expect(decided).toMatchObject({
          id,
          status: cmd.approve ? 'trading' : 'ended',
          ...(cmd.approve ? { startedAt: t } : { endReason: 'rejected' }),
        });
        return none;
      }
      case 'subBuy': {
        const um = await chooser(users, cmd.who, trading);
        const allocation = await latestAllocation(um.user.user.id);
        const code = SUB_CODES[cmd.code]!;
        const applyId = allocation?.id ?? 2_000_000_000;
        let expected: Expected = ['REFUSED'];
        if (allocation?.status === 'trading' && t < num(allocation.expires_at)) {
          const detail = data(await anon().get<StockDetail>('/api/stock/getSingleStock.do', { code }));
          const value = toMinor(detail.price * cmd.lots * 100);
          const cash = await available(um.user.user.id, SUB_ACCOUNT_TYPE);
          expected =
            cash >= value + Math.ceil(value * 0.002) + 2_000
              ? ['OK', 'SUSPENDED', 'PRICE_LIMIT']
              : cash < value
                ? ['INSUFFICIENT_FUNDS', 'SUSPENDED', 'PRICE_LIMIT']
                : null;
        }
        const res = await um.user.client.post<Position>('/user/funds/buyFunds.do', {
          applyId,
          code,
          lots: cmd.lots,
          requestId: newRequestId(),
        });
        return {
          res,
          expected,
          verify: async () => {
            const p = data(res);
            expect(p).toMatchObject({ code, lots: cmd.lots, leverage: 1 });
            const row = await station.app.db
              .selectFrom('positions')
              .selectAll()
              .where('id', '=', p.id)
              .executeTakeFirstOrThrow();
            expect(row.account_id, 'bought in the sub-account').toBe(allocation!.account_id);
            expect(num(row.margin)).toBe(num(row.open_value));
          },
        };
      }
      case 'subSell': {
        const um = await chooser(users, cmd.who, trading);
        const allocation = await latestAllocation(um.user.user.id);
        const open = await openPositions(um.user.user.id, [SUB_ACCOUNT_TYPE]);
        const p = open[cmd.pick % Math.max(1, open.length)];
        if (!p || !allocation) return none;
        const lots = Math.max(1, Math.round(p.lots * cmd.part));
        const res = await um.user.client.post<Position>('/user/funds/sellFunds.do', {
          applyId: allocation.id,
          positionId: p.id,
          ...(lots < p.lots ? { lots } : {}),
          requestId: newRequestId(),
        });
        // The sale guard's order: the position must be this allocation's; the allocation must still trade
        // and be before its last close (a later application may be pending while an older one's
        // positions stay open); then the market's T+1.
        const trades =
          allocation.status === 'trading' && allocation.expires_at !== null && t < num(allocation.expires_at);
        const expected =
          p.account_id !== allocation.account_id
            ? ['NOT_FOUND']
            : !trades
              ? ['ALREADY_DONE']
              : t < p.sellable_from
                ? ['T_PLUS_ONE']
                : null;
        return { res, expected };
      }
      case 'end': {
        const um = await chooser(users, cmd.who, trading);
        const allocation = await latestAllocation(um.user.user.id);
        if (!allocation) return none;
        const open = await openPositions(um.user.user.id, [SUB_ACCOUNT_TYPE]);
        const expected =
          allocation.status !== 'trading' || t >= num(allocation.expires_at)
            ? ['ALREADY_DONE']
            : open.length === 0
              ? ['OK']
              : open.some((p) => t < p.sellable_from)
                ? ['T_PLUS_ONE']
                : null;
        const res = await um.user.client.post<Allocation>('/user/funds/endFundsApply.do', {
          applyId: allocation.id,
          requestId: newRequestId(),
        });
        return {
          res,
          expected,
          verify: () => {
            expect(data(res)).toMatchObject({
              id: allocation.id,
              status: 'ended',
              endReason: 'user',
              endedAt: t,
            });
          },
        };
      }
      case 'tick':
        if (cmd.step) await stepTo(Math.min(t + cmd.ms, runEnd));
        else station.clock.set(Math.max(t, Math.min(t + cmd.ms, runEnd)));
        return none;
      case 'event': {
        await stepTo(Math.min(eventTime(t, cmd.target, users) + cmd.offset, runEnd));
        return none;
      }
      case 'bad': {
        const um = actAs(users[cmd.who]!);
        const other = actAs(users[(cmd.who + 1) % USERS]!);
        return { res: await badInput(um, other, cmd.variant), expected: ['REFUSED'] };
      }
    }
  }

  it('keeps every invariant after every step of random product sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 120, maxLength: 180 }), async (commands) => {
        // Time only moves forward; each run starts where the last ended, in a subscription window.
        if (!calendar.some((i) => i.subscribeOpensAt <= now() && now() < i.subscribeClosesAt)) {
          // (Past the calendar's horizon there is none: many runs with PRODUCTS_RUNS go on without.)
          const next = calendar.find((i) => i.subscribeOpensAt > now());
          if (next) await stepTo(next.subscribeOpensAt + 5 * MINUTE);
        }
        // A run spans at most RUN_SPAN (sessions last 30 days; the calendar reaches 120 days ahead).
        runStart = now();
        runEnd = runStart + RUN_SPAN;
        const users: UserModel[] = [];
        for (let i = 0; i < USERS; i++) {
          const user = await register(anon());
          users.push({
            user,
            vip: i === 0,
            subs: new Map(),
            open: new Set(),
            closed: new Set(),
            funds: new Map(),
            allocations: new Map(),
            newstockNet: 0,
          });
        }
        await grantVip(users[0]!.user.user.id, true);

        for (const cmd of commands) {
          const before = await writes();
          touched.clear();
          const clockBefore = now();
          const stepBefore = lastStep;
          const outcome = await run(users, cmd);
          const { res, expected, verify } = outcome;
          const label = `${JSON.stringify(cmd)} at ${new Date(now()).toISOString()}`;
          if (res) {
            expect(res.http, `${label}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
            const code = res.body.status === 0 ? 'OK' : failure(res).code;
            reached.add(`${cmd.kind}:${code}`);
            if (expected) {
              const allowed = expected.includes('REFUSED') ? code !== 'OK' : expected.includes(code);
              expect(
                allowed,
                `${label}: expected ${expected.join('|')}, got ${JSON.stringify(res.body)}`,
              ).toBe(true);
            }
            if (code === 'OK') await verify?.(res);
            else {
              expect(res.http, label).toBeGreaterThanOrEqual(400);
              expect(failure(res).msg, `${label}: a translated message`).toMatch(/\S/);
              expect(await writes(), `${label}: a refused call wrote nothing`).toEqual(
                outcome.before ?? before,
              );
            }
          }
          await checkGlobal();
          // A command changes only the records of the users it acted for, unless the clock or the engine
          // moved.
          const everyone =
            now() !== clockBefore ||
            lastStep !== stepBefore ||
            touched.size === 0 ||
            cmd.kind === 'permission';
          for (const um of everyone ? users : touched) await checkUser(um);
        }
        for (const um of users) {
          const id = um.user.user.id;
          const subs = await station.app.db
            .selectFrom('newshare_subscriptions')
            .select('state')
            .where('user_id', '=', id)
            .execute();
          for (const s of subs) reached.add(`subscription:${s.state}`);
          const allocations = await station.app.db
            .selectFrom('allocations')
            .select(['status', 'end_reason'])
            .where('user_id', '=', id)
            .execute();
          for (const a of allocations) reached.add(`allocation:${a.status}:${a.end_reason ?? '-'}`);
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    // The default sequences reach every product's main paths (another seed or run count may not).
    if (process.env.PRODUCTS_SEED === undefined && process.env.PRODUCTS_RUNS === undefined) {
      expect([...reached].sort()).toEqual(expect.arrayContaining([...COVERED].sort()));
    }
  }, 300_000);

  // Found while extending this test (the engine lagging behind the clock): ending an allocation early
  // skipped the fees of the closes that had passed but that the engine had not handled yet, and ended
  // one past its expiry as the user's end instead of letting it expire.
  it('ending early charges the fees of every close already passed, and past the expiry is refused', async () => {
    const user = await register(anon());
    const apply = async (days: number) =>
      data(
        await user.client.post<Allocation>('/user/funds/addFundsApply.do', {
          typeCode: 'days',
          margin: 10_000,
          multiple: 5,
          days,
          requestId: newRequestId(),
        }),
      );
    const fees = async (id: number) =>
      (
        await station.app.db
          .selectFrom('ledger_entries')
          .select(['amount', 'time'])
          .where('ref_type', '=', 'allocation')
          .where('ref_id', '=', id)
          .where('type', '=', 'management_fee')
          .orderBy('id')
          .execute()
      ).map((e) => [num(e.amount), e.time]);

    const first = await apply(3);
    const approved = await decideAllocationByOperator(
      station.app.station,
      first.id,
      'approve',
      'ops',
      'test',
    );
    const close = (k: number) => closeOfTradingDay(station.app.station, approved.startedAt!, k);
    // Two closes pass; the engine has not stepped since.
    station.clock.set(close(2) + HOUR);
    const ended = data(
      await user.client.post<Allocation>('/user/funds/endFundsApply.do', {
        applyId: first.id,
        requestId: newRequestId(),
      }),
    );
    expect(ended).toMatchObject({ status: 'ended', endReason: 'user', feesCharged: 100 });
    expect(await fees(first.id)).toEqual([
      [-5_000, close(1)],
      [-5_000, close(2)],
    ]);
    // The margin less the two fees comes back (nothing was traded).
    expect(ended.returned).toBe(9_900);
    await station.app.engine.step();
    expect(await fees(first.id)).toHaveLength(2);

    const second = await apply(2);
    const started = await decideAllocationByOperator(
      station.app.station,
      second.id,
      'approve',
      'ops',
      'test',
    );
    const expiry = closeOfTradingDay(station.app.station, started.startedAt!, 2);
    expect(started.expiresAt).toBe(expiry);
    station.clock.set(expiry + HOUR);
    const before = await writes();
    const late = await user.client.post('/user/funds/endFundsApply.do', {
      applyId: second.id,
      requestId: newRequestId(),
    });
    expect(failure(late).code).toBe('ALREADY_DONE');
    expect(await writes()).toEqual(before);
    await station.app.engine.step();
    const expired = data(
      await user.client.get<Page<Allocation>>('/user/funds/getUserApplyList.do', { status: 'expired' }),
    ).list;
    expect(expired).toMatchObject([
      { id: second.id, endReason: 'expiry', feesCharged: 100, endedAt: expiry },
    ]);
    await station.assertLedger();
  });
});

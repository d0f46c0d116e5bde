/**
 * The trading engine: limit-order triggers, stop profit / stop loss, forced liquidation by the risk ratio
 * and the daily deferred fee (DOMAIN.md "Fees", "Leverage, margin and liquidation").
 *
 * Time. The simulated price of an instrument changes once per session minute (MarketService.quote reads the
 * day's minute path at ⌊elapsed minutes⌋), and every session starts on a whole UTC minute, so the engine
 * works on a grid of whole minutes: a step handles each minute M in (progress, now] in order, valuing
 * everything at the price of M. Its progress (the last minute handled) is stored in `engine_runs`
 * ('engine_progress', 'ticks'), so after a restart it goes on from there, not from now. A step's result does
 * not depend on how the time was cut into steps: one step over an hour does what sixty one-minute steps do.
 * Catch-up is bounded: at most MAX_TICK_CATCH_UP_MS of minutes are replayed (older minutes after a long
 * downtime are skipped, and logged); day closes (deferred fees) are caught up for MAX_CLOSE_CATCH_UP_MS.
 *
 * At each minute M, in this order:
 * 1. Limit orders: a pending long order fills when its instrument trades at M (in session, not suspended)
 *    and price(M) ≤ trigger (a short: ≥), at price(M), never at limit-up for a buy (limit-down for a short
 *    sale). An order is considered from the first minute at or after it was placed.
 * 2. Stops: an open position is closed at price(M) (the tick that crossed) with reason stop_profit or
 *    stop_loss when price(M) is at or beyond the stop (long: ≥ stop profit, ≤ stop loss; short the other
 *    way), if it may be closed at M: in session, not suspended, T+1 passed, not selling at limit-down
 *    (buying back at limit-up). A stop that may not be closed yet waits, and fires at the first minute it
 *    may be closed if the price is still beyond it.
 * 3. Risk (risk-step.ts, over the rule book of src/shared/risk.ts): for each account with something
 *    borrowed, R = (available + Σ collateral) ÷ Σ borrowed (a long: its value over open value − margin; a
 *    short: its proceeds + margin over its value now, so every short counts). Below the warning line the
 *    user is messaged once per episode. At or below the liquidation line, the positions whose closing
 *    raises R are closed at price(M), largest loss first, until R is above the warning line; a position
 *    that may not be closed now (T+1, suspended, outside its session, at its limit) is skipped and the user
 *    is told once per episode. Unleveraged longs of a main account are never force-closed. The sub-accounts
 *    of trading allocations go through the same step once per step, at its time, with their allocated funds
 *    as borrowed capital.
 * 4. Day closes (deferred fee): at each market's daily close, every position of that market open at the
 *    close with something borrowed pays deferredFeeRate × (open value − margin), as a ledger entry
 *    'deferred_fee' and in position.deferred_fee, once per market and trading day: the charge and its
 *    ('deferred_fee', '<market>:<date>') row commit together. Markets: cn (A-shares, CNY indexes and
 *    futures) closes at 15:00 Shanghai, hk at 16:00 Hong Kong, us at 16:00 New York, on their calendars'
 *    trading days. In CLOCK_MODE=always-open every day trades around the clock and "the close" is the end
 *    of the UTC day (00:00 UTC), where the simulation starts its next trading day (new previous close and
 *    limits, T+1 release). A close at instant C is handled before the minute C itself.
 *
 * Every effect re-reads and locks its rows and re-checks them inside its transaction, so a step is safe
 * beside user calls and beside another engine, and handling a minute twice changes nothing.
 */
import { deferredFee, triggeredStop } from '../../src/shared/risk';
import type { Currency } from '../../src/shared/api/types';
import { isUniqueViolation } from '../platform/db/database';
import type { AccountRow, OrderRow, PositionRow, Tx } from '../platform/db/schema';
import type { Instrument } from '../market/catalogue';
import {
  dateOfDay,
  dayCloseTime,
  hoursFor,
  isTradingDay,
  localDay,
  MINUTE_MS,
  DAY_MS,
} from '../market/sessions';
import type { Station } from '../platform/station';
import { post, postingAgainst } from '../ledger/ledger';
import { postMessage } from '../ledger/messages';
import { fillOrder, lockAccountById } from './limit-orders';
import { closePositionTx } from './trading';
import { reviewDueWalletRequests } from '../wallet/wallet-review';
import { runDueNewShareEvents } from '../products/new-shares';
import { runDueAllocationEvents } from '../products/fund-allocation';
import { createRiskStep, type RiskCounts } from './risk-step';

/** Minutes replayed at most after a downtime. */
export const MAX_TICK_CATCH_UP_MS = 3 * DAY_MS;
/** Day closes (deferred fees) caught up at most after a downtime. */
export const MAX_CLOSE_CATCH_UP_MS = 31 * DAY_MS;

const PROGRESS = { kind: 'engine_progress', key: 'ticks' } as const;

export interface EngineStepResult {
  /** The last minute handled (epoch ms). */
  processedTo: number;
  minutes: number;
  fills: number;
  rejections: number;
  stops: number;
  warnings: number;
  liquidations: number;
  /** Market days whose deferred fee this step charged. */
  feeDays: number;
}

export interface Engine {
  /** Handles every minute up to `now` (the station's clock by default). Steps never overlap. */
  step(now?: number): Promise<EngineStepResult>;
  /** Records where the engine starts when it has never run on this database. */
  init(now?: number): Promise<void>;
}

type FeeMarket = 'cn' | 'hk' | 'us';
const FEE_MARKETS: readonly { name: FeeMarket; hoursOf: 'a' | 'hk' | 'us'; currency: Currency }[] = [
  { name: 'cn', hoursOf: 'a', currency: 'CNY' },
  { name: 'hk', hoursOf: 'hk', currency: 'HKD' },
  { name: 'us', hoursOf: 'us', currency: 'USD' },
];

interface DayClose {
  market: (typeof FEE_MARKETS)[number];
  day: number;
  time: number;
}

interface TickQuote {
  price: number;
  trading: boolean;
  limitUp: number | null;
  limitDown: number | null;
}

interface State {
  orders: OrderRow[];
  /** Open positions with a stop, or of an account with something borrowed. */
  positions: PositionRow[];
  /** Accounts with something borrowed. */
  accounts: Map<number, AccountRow>;
  /** Their open positions. */
  byAccount: Map<number, PositionRow[]>;
  /** Accounts in a risk episode (warned). */
  episodes: Set<number>;
  /** The sub-accounts of trading allocations: checked once per step by checkSubAccounts. */
  subAccounts: Set<number>;
}

const floorMinute = (t: number) => Math.floor(t / MINUTE_MS) * MINUTE_MS;
/** The financed part of a position: what the deferred fee is charged on. */
const financedOf = (p: PositionRow) => Math.max(0, p.open_value - p.margin);
/** Whether a position borrows (and so counts for the risk ratio): a long with leverage, every short. */
const borrows = (p: PositionRow) => p.direction === 'short' || financedOf(p) > 0;
const hasStop = (p: PositionRow) => p.stop_profit !== null || p.stop_loss !== null;

export function createEngine(station: Station): Engine {
  const { settings } = station.config;

  function instrumentOf(code: string, market: string): Instrument | undefined {
    try {
      if (market === 'index') return station.market.getIndex(code);
      if (market === 'futures') return station.market.getFutures(code);
      return station.market.find(code);
    } catch {
      return undefined;
    }
  }

  /** The price of an instrument at minute M and whether it trades then; memoised per step. */
  const quotes = new Map<string, TickQuote>();
  function quoteAt(instrument: Instrument, t: number): TickQuote {
    const key = `${instrument.code}|${t}`;
    let q = quotes.get(key);
    if (!q) {
      const pos = station.market.position(instrument, t);
      const record = station.market.series(instrument).record(pos.day);
      q = {
        price: station.market.quote(instrument, t).price,
        trading: pos.inSession && !record.suspended,
        limitUp: record.limits?.up ?? null,
        limitDown: record.limits?.down ?? null,
      };
      quotes.set(key, q);
    }
    return q;
  }

  /** Whether a position may be closed at minute M (what a user's sell would need), and its price then. */
  function closable(p: PositionRow, t: number): TickQuote | null {
    const instrument = instrumentOf(p.code, p.market);
    if (!instrument || t < p.sellable_from) return null;
    const q = quoteAt(instrument, t);
    if (!q.trading) return null;
    if (p.direction === 'long' && q.limitDown !== null && q.price <= q.limitDown) return null;
    if (p.direction === 'short' && q.limitUp !== null && q.price >= q.limitUp) return null;
    return q;
  }

  function priceAt(p: PositionRow, t: number): number {
    const instrument = instrumentOf(p.code, p.market);
    return instrument ? quoteAt(instrument, t).price : p.open_price;
  }

  async function readProgress(): Promise<number | undefined> {
    const row = await station.db
      .selectFrom('engine_runs')
      .select('done_at')
      .where('kind', '=', PROGRESS.kind)
      .where('key', '=', PROGRESS.key)
      .executeTakeFirst();
    return row?.done_at;
  }

  async function init(now = station.clock.now()): Promise<void> {
    await station.db
      .insertInto('engine_runs')
      .values({ ...PROGRESS, done_at: floorMinute(now), note: null })
      .onConflict((oc) => oc.columns(['kind', 'key']).doNothing())
      .execute();
  }

  async function saveProgress(t: number): Promise<void> {
    await station.db
      .updateTable('engine_runs')
      .set({ done_at: t })
      .where('kind', '=', PROGRESS.kind)
      .where('key', '=', PROGRESS.key)
      .where('done_at', '<', t)
      .execute();
  }

  async function loadState(): Promise<State> {
    const orders = await station.db
      .selectFrom('orders')
      .selectAll()
      .where('status', '=', 'pending')
      .orderBy('id')
      .execute();
    const leveraged = station.db
      .selectFrom('positions')
      .select('account_id')
      .where('state', '=', 'open')
      .where((eb) => eb.or([eb('open_value', '>', eb.ref('margin')), eb('direction', '=', 'short')]));
    const positions = await station.db
      .selectFrom('positions')
      .selectAll()
      .where('state', '=', 'open')
      .where((eb) =>
        eb.or([
          eb('stop_profit', 'is not', null),
          eb('stop_loss', 'is not', null),
          eb('account_id', 'in', leveraged),
        ]),
      )
      .orderBy('id')
      .execute();
    const accountIds = [...new Set(positions.filter(borrows).map((p) => p.account_id))];
    const accounts =
      accountIds.length === 0
        ? []
        : await station.db.selectFrom('accounts').selectAll().where('id', 'in', accountIds).execute();
    const episodes = await station.db
      .selectFrom('engine_runs')
      .select('key')
      .where('kind', '=', 'risk_episode')
      .execute();
    const subAccounts = await station.db
      .selectFrom('allocations')
      .select('account_id')
      .where('status', '=', 'trading')
      .execute();
    const byAccount = new Map<number, PositionRow[]>();
    for (const p of positions) byAccount.set(p.account_id, [...(byAccount.get(p.account_id) ?? []), p]);
    return {
      orders,
      positions,
      byAccount,
      accounts: new Map(accounts.map((a) => [a.id, a])),
      episodes: new Set(episodes.map((e) => Number(e.key))),
      subAccounts: new Set(subAccounts.flatMap((a) => (a.account_id === null ? [] : [a.account_id]))),
    };
  }

  function idle(state: State): boolean {
    return (
      state.orders.length === 0 &&
      state.accounts.size === 0 &&
      [...state.episodes].every((id) => state.subAccounts.has(id)) &&
      !state.positions.some(hasStop)
    );
  }

  /** Day closes of every fee market in (from, to], oldest first. */
  function closesBetween(from: number, to: number): DayClose[] {
    const out: DayClose[] = [];
    for (const market of FEE_MARKETS) {
      const hours = hoursFor(market.hoursOf, station.config.clockMode);
      const last = localDay(to, hours.timeZone);
      for (let day = localDay(from, hours.timeZone) - 1; day <= last; day++) {
        if (!isTradingDay(day, hours)) continue;
        const time = dayCloseTime(day, hours);
        if (time > from && time <= to) out.push({ market, day, time });
      }
    }
    return out.sort((a, b) => a.time - b.time || a.market.name.localeCompare(b.market.name));
  }

  /** Charges one market day's deferred fee; false when it was charged before. */
  async function chargeDeferredFee(close: DayClose): Promise<boolean> {
    const key = `${close.market.name}:${dateOfDay(close.day)}`;
    try {
      await station.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('engine_runs')
          .values({ kind: 'deferred_fee', key, done_at: close.time, note: null })
          .execute();
        const held = await trx
          .selectFrom('positions')
          .selectAll()
          .where('opened_at', '<', close.time)
          .where((eb) => eb.or([eb('closed_at', 'is', null), eb('closed_at', '>=', close.time)]))
          .where((eb) => eb('open_value', '>', eb.ref('margin')))
          .orderBy('account_id')
          .orderBy('id')
          // Locked, so a sell cannot close one while its fee is taken from its margin.
          .$if(station.dialect === 'postgres', (q) => q.forUpdate())
          .execute();
        let charged = 0;
        for (const p of held) {
          if (instrumentOf(p.code, p.market)?.currency !== close.market.currency) continue;
          let fee = deferredFee({ openValue: p.open_value, margin: p.margin }, settings.deferredFeeRate);
          if (fee <= 0) continue;
          // The fee comes from available cash; what cash cannot pay comes out of the position's own margin
          // (moved back to cash first, raising its risk), so available never goes negative. Beyond the
          // margin too, the rest is waived: the position is then at the liquidation line anyway.
          const account = await lockAccountById(trx, station, p.account_id);
          const available = Math.max(0, account.balance - account.frozen);
          const margin = p.state === 'open' ? p.margin : 0;
          const fromMargin = Math.min(Math.max(0, fee - available), margin);
          fee = Math.min(fee, available + fromMargin);
          if (fee <= 0) continue;
          if (fromMargin > 0) {
            await post(
              trx,
              postingAgainst('market', {
                accountId: p.account_id,
                userId: p.user_id,
                type: 'margin_release',
                amount: fromMargin,
                time: close.time,
                refType: 'position',
                refId: p.id,
                note: `${p.code} ${dateOfDay(close.day)}`,
              }),
            );
            await trx
              .updateTable('positions')
              .set((eb) => ({ margin: eb('margin', '-', fromMargin) }))
              .where('id', '=', p.id)
              .execute();
          }
          await post(
            trx,
            postingAgainst('financing', {
              accountId: p.account_id,
              userId: p.user_id,
              type: 'deferred_fee',
              amount: -fee,
              time: close.time,
              refType: 'position',
              refId: p.id,
              note: `${p.code} ${dateOfDay(close.day)}`,
            }),
          );
          await trx
            .updateTable('positions')
            .set((eb) => ({ deferred_fee: eb('deferred_fee', '+', fee) }))
            .where('id', '=', p.id)
            .execute();
          charged += fee;
        }
        await trx
          .updateTable('engine_runs')
          .set({ note: `positions charged, total minor units ${charged}` })
          .where('kind', '=', 'deferred_fee')
          .where('key', '=', key)
          .execute();
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Closes a position by the engine at minute t if it is still open; re-checks `stillDue` on the locked row. */
  async function engineClose(
    p: PositionRow,
    t: number,
    price: number,
    reason: 'stop_profit' | 'stop_loss' | 'liquidation',
    stillDue: (locked: PositionRow, account: AccountRow, trx: Tx) => Promise<boolean>,
    message: { msgKey: string; params: Record<string, string | number> },
  ): Promise<boolean> {
    return station.db.transaction().execute(async (trx) => {
      const account = await lockAccountById(trx, station, p.account_id);
      const locked = await trx
        .selectFrom('positions')
        .selectAll()
        .where('id', '=', p.id)
        .$if(station.dialect === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
      if (!locked || locked.state !== 'open') return false;
      if (!(await stillDue(locked, account, trx))) return false;
      const closedId = await closePositionTx(trx, station, locked, {
        lots: locked.lots,
        price,
        reason,
        now: t,
      });
      await postMessage(trx, {
        userId: locked.user_id,
        kind: reason,
        msgKey: message.msgKey,
        params: { ...message.params, lots: locked.lots, price },
        refType: 'position',
        refId: closedId,
        now: t,
      });
      return true;
    });
  }

  const stopReason = (p: PositionRow, price: number) =>
    triggeredStop(p.direction, price, { stopProfit: p.stop_profit, stopLoss: p.stop_loss });

  const risk = createRiskStep(station, {
    priceAt,
    closable,
    instrumentName: (p) => instrumentOf(p.code, p.market)?.name ?? p.code,
    close: (p, t, price, stillDue, message) => engineClose(p, t, price, 'liquidation', stillDue, message),
  });

  /**
   * The risk step of the sub-accounts of trading allocations, once per step at `now` (their R is valued
   * when the engine steps, after the day's management fees), through the same risk step as main accounts.
   */
  async function checkSubAccounts(now: number, counts: RiskCounts): Promise<void> {
    const allocations = await station.db
      .selectFrom('allocations')
      .selectAll()
      .where('status', '=', 'trading')
      .orderBy('id')
      .execute();
    if (allocations.length === 0) return;
    const episodes = await station.db
      .selectFrom('engine_runs')
      .select('key')
      .where('kind', '=', 'risk_episode')
      .execute();
    const warned = new Set(episodes.map((e) => Number(e.key)));
    for (const allocation of allocations) {
      if (allocation.account_id === null) continue;
      const account = await station.db
        .selectFrom('accounts')
        .selectAll()
        .where('id', '=', allocation.account_id)
        .executeTakeFirstOrThrow();
      const positions = await station.db
        .selectFrom('positions')
        .selectAll()
        .where('account_id', '=', account.id)
        .where('state', '=', 'open')
        .orderBy('id')
        .execute();
      await risk.check({ account, allocation }, positions, now, warned, counts);
    }
  }

  /** Steps 1-3 at minute t. True when something was written that the in-memory state does not show. */
  async function tick(t: number, state: State, result: EngineStepResult): Promise<boolean> {
    let changed = false;
    for (const order of state.orders) {
      if (t < order.created_at) continue;
      const instrument = instrumentOf(order.code, order.market);
      if (!instrument) continue;
      const q = quoteAt(instrument, t);
      if (!q.trading) continue;
      const reached =
        order.direction === 'long'
          ? q.price <= order.trigger_price && !(q.limitUp !== null && q.price >= q.limitUp)
          : q.price >= order.trigger_price && !(q.limitDown !== null && q.price <= q.limitDown);
      if (!reached) continue;
      const outcome = await fillOrder(station, order.id, { price: q.price, now: t });
      if (outcome === 'filled') result.fills++;
      if (outcome === 'rejected') result.rejections++;
      if (outcome !== 'gone') changed = true;
    }
    if (changed) return true; // new positions may carry stops: the caller reloads and comes back to t

    for (const p of state.positions) {
      if (!hasStop(p) || t < p.opened_at) continue;
      const q = closable(p, t);
      if (!q) continue;
      const reason = stopReason(p, q.price);
      if (!reason) continue;
      const closed = await engineClose(
        p,
        t,
        q.price,
        reason,
        async (locked) => stopReason(locked, q.price) === reason,
        {
          msgKey: reason === 'stop_profit' ? 'stopProfit' : 'stopLoss',
          params: { code: p.code, name: instrumentOf(p.code, p.market)?.name ?? p.code },
        },
      );
      if (closed) {
        result.stops++;
        changed = true;
      }
    }
    if (changed) return true;

    for (const accountId of [...state.episodes]) {
      if (!state.accounts.has(accountId) && !state.subAccounts.has(accountId)) {
        await risk.endEpisode(accountId);
        state.episodes.delete(accountId);
      }
    }
    for (const account of state.accounts.values()) {
      const positions = state.byAccount.get(account.id) ?? [];
      const subject = { account, allocation: null };
      if (await risk.check(subject, positions, t, state.episodes, result)) changed = true;
    }
    return changed;
  }

  async function run(now: number): Promise<EngineStepResult> {
    quotes.clear();
    await init(now);
    // Deposits and withdrawals due for the pay channel's answer (issue 10); each is decided once.
    await reviewDueWalletRequests(station, now);
    // New-share draws, payment deadlines and listings due (issue 13); each applied once.
    await runDueNewShareEvents(station, now);
    await runDueAllocationEvents(station, now);
    const progress = (await readProgress())!;
    const to = floorMinute(now);
    const result: EngineStepResult = {
      processedTo: progress,
      minutes: 0,
      fills: 0,
      rejections: 0,
      stops: 0,
      warnings: 0,
      liquidations: 0,
      feeDays: 0,
    };
    await checkSubAccounts(now, result);
    if (to <= progress) return result;

    const closes = closesBetween(Math.max(progress, to - MAX_CLOSE_CATCH_UP_MS), to);
    let t = Math.max(progress, to - MAX_TICK_CATCH_UP_MS);
    if (t > progress) {
      station.log.info({ from: progress, to: t }, 'engine: catch-up bounded, minutes skipped');
    }
    let state = await loadState();
    let nextClose = 0;
    const handleClosesUpTo = async (limit: number) => {
      while (nextClose < closes.length && closes[nextClose]!.time <= limit) {
        if (await chargeDeferredFee(closes[nextClose]!)) result.feeDays++;
        nextClose++;
      }
    };
    while (t < to) {
      if (idle(state)) {
        // Nothing to watch: go straight to the next close, or to the end.
        if (nextClose >= closes.length) {
          t = to;
          break;
        }
        t = Math.min(Math.max(floorMinute(closes[nextClose]!.time), t + MINUTE_MS), to) - MINUTE_MS;
      }
      const minute = t + MINUTE_MS;
      const feeDays = result.feeDays;
      await handleClosesUpTo(minute);
      if (result.feeDays !== feeDays) state = await loadState();
      // A minute is done when a pass over it writes nothing new (a fill may open a position whose stop
      // is crossed in the same minute; a liquidation changes the account's figures).
      for (let pass = 0; pass < 10; pass++) {
        if (!(await tick(minute, state, result))) break;
        state = await loadState();
      }
      t = minute;
      result.minutes++;
      if (result.minutes % 1440 === 0) await saveProgress(t);
    }
    await handleClosesUpTo(to);
    await saveProgress(to);
    result.processedTo = to;
    return result;
  }

  let chain: Promise<unknown> = Promise.resolve();
  return {
    init,
    step(now?: number) {
      const next = chain.then(() => run(now ?? station.clock.now()));
      chain = next.catch(() => undefined);
      return next;
    },
  };
}

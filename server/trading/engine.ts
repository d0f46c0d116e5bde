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
 * 1. Limit orders (limit-order-step.ts): a pending long order fills when its instrument trades at M (in session, not suspended)
 *    and price(M) ≤ trigger (a short: ≥), at price(M), never at limit-up for a buy (limit-down for a short
 *    sale). An order is considered from the first minute at or after it was placed. Before that, day orders
 *    whose session closed at or before M expire (order-expiry.ts).
 * 2. Stops (stop-step.ts): an open position is closed at price(M) (the tick that crossed) with reason stop_profit or
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
 * 4. Day closes (deferred fee, day-close-step.ts): at each market's daily close, every position of that market open at the
 *    close with something borrowed (futures excepted: margined, not financed) pays deferredFeeRate × (open value − margin), as a ledger entry
 *    'deferred_fee' and in position.deferred_fee, once per market and trading day: the charge and its
 *    ('deferred_fee', '<market>:<date>') row commit together. Markets: cn (A-shares, CNY indexes and
 *    futures) closes at 15:00 Shanghai, hk at 16:00 Hong Kong, us at 16:00 New York, on their calendars'
 *    trading days. In CLOCK_MODE=always-open every day trades around the clock and "the close" is the end
 *    of the UTC day (00:00 UTC), where the simulation starts its next trading day (new previous close and
 *    limits, T+1 release). A close at instant C is handled before the minute C itself.
 * 5. Price alerts (alerts.ts): each armed alert whose instrument trades at M and whose condition holds at
 *    price(M) fires once, with a message to its user.
 *
 * Every effect re-reads and locks its rows and re-checks them inside its transaction, so a step is safe
 * beside user calls and beside another engine, and handling a minute twice changes nothing.
 */
import { MINUTE_MS, DAY_MS, type Station } from '../platform';
import { chargeDeferredFee, closesBetween } from './day-close-step';
import { engineClose } from './engine-close';
import { createEngineQuotes } from './engine-quotes';
import { isIdle, loadEngineState, type EngineState } from './engine-state';
import { runLimitOrderStep } from './limit-order-step';
import { expireDayOrders } from './order-expiry';
import { createRiskStep, type RiskStep } from './risk-step';
import { runStopStep } from './stop-step';
import { runAlertStep } from './alerts';
import { checkSubAccounts } from './sub-account-risk';

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
  /** Day orders that expired unfilled at their session's close. */
  expiries: number;
  /** Price alerts fired. */
  alerts: number;
}

export interface Engine {
  /** Handles every minute up to `now` (the station's clock by default). Steps never overlap. */
  step(now?: number): Promise<EngineStepResult>;
  /** Records where the engine starts when it has never run on this database. */
  init(now?: number): Promise<void>;
}

const floorMinute = (t: number) => Math.floor(t / MINUTE_MS) * MINUTE_MS;

/** The last minute the engine handled on this database. */
async function readProgress(station: Station): Promise<number | undefined> {
  const row = await station.db
    .selectFrom('engine_runs')
    .select('done_at')
    .where('kind', '=', PROGRESS.kind)
    .where('key', '=', PROGRESS.key)
    .executeTakeFirst();
  return row?.done_at;
}

/** Records the engine's start at `now` unless it has run on this database before. */
async function initProgress(station: Station, now: number): Promise<void> {
  await station.db
    .insertInto('engine_runs')
    .values({ ...PROGRESS, done_at: floorMinute(now), note: null })
    .onConflict((oc) => oc.columns(['kind', 'key']).doNothing())
    .execute();
}

/** Moves the progress forward to minute t (never back, should another engine be ahead). */
async function saveProgress(station: Station, t: number): Promise<void> {
  await station.db
    .updateTable('engine_runs')
    .set({ done_at: t })
    .where('kind', '=', PROGRESS.kind)
    .where('key', '=', PROGRESS.key)
    .where('done_at', '<', t)
    .execute();
}

/** The risk step at minute t over the accounts with something borrowed; ends episodes no longer watched. */
async function runRiskStep(
  risk: RiskStep,
  state: EngineState,
  t: number,
  result: EngineStepResult,
): Promise<boolean> {
  let changed = false;
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

/** What the engine needs from the products area (the jobs wire it in). */
export interface EngineDeps {
  /** Ends a trading allocation whose sub-account was liquidated down to nothing left to close. */
  endLiquidatedAllocation(allocationId: number, t: number): Promise<boolean>;
}

export function createEngine(station: Station, deps: EngineDeps): Engine {
  const quotes = createEngineQuotes(station);
  const risk = createRiskStep(station, {
    priceAt: quotes.priceAt,
    closable: quotes.closable,
    instrumentName: (p) => quotes.instrumentOf(p.code, p.market)?.name ?? p.code,
    close: (p, t, price, stillDue, message) =>
      engineClose(station, p, t, price, 'liquidation', stillDue, message),
    endLiquidatedAllocation: deps.endLiquidatedAllocation,
  });
  const init = (now = station.clock.now()) => initProgress(station, now);

  /** Steps 1-3 and 5 at minute t. True when something was written that the in-memory state does not show. */
  async function tick(t: number, state: EngineState, result: EngineStepResult): Promise<boolean> {
    // New positions may carry stops: the caller reloads and comes back to t.
    if (await runLimitOrderStep(station, quotes, state.orders, t, result)) return true;
    if (await runStopStep(station, quotes, state.positions, t, result)) return true;
    if (await runRiskStep(risk, state, t, result)) return true;
    if (state.alerts.length > 0) {
      const fired = await runAlertStep(station, quotes, state.alerts, t);
      if (fired.size > 0) {
        // Nothing else reads an alert: drop the fired ones rather than reload the state.
        state.alerts = state.alerts.filter((a) => !fired.has(Number(a.id)));
        result.alerts += fired.size;
      }
    }
    return false;
  }

  async function run(now: number): Promise<EngineStepResult> {
    quotes.clear();
    await init(now);
    const progress = (await readProgress(station))!;
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
      expiries: 0,
      alerts: 0,
    };
    await checkSubAccounts(station, risk, now, result);
    if (to <= progress) return result;

    const closes = closesBetween(station, Math.max(progress, to - MAX_CLOSE_CATCH_UP_MS), to);
    let t = Math.max(progress, to - MAX_TICK_CATCH_UP_MS);
    if (t > progress) {
      station.log.info({ from: progress, to: t }, 'engine: catch-up bounded, minutes skipped');
    }
    let state = await loadEngineState(station);
    let nextClose = 0;
    const handleClosesUpTo = async (limit: number) => {
      while (nextClose < closes.length && closes[nextClose]!.time <= limit) {
        if (await chargeDeferredFee(station, quotes, closes[nextClose]!)) result.feeDays++;
        nextClose++;
      }
    };
    while (t < to) {
      if (isIdle(state)) {
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
      if (result.feeDays !== feeDays) state = await loadEngineState(station);
      // Day orders whose close has come expire before the minute's fills (order-expiry.ts); overdue ones
      // (a catch-up that skipped minutes) too.
      if (state.orders.some((o) => o.expires_at !== null && o.expires_at <= minute)) {
        result.expiries += await expireDayOrders(station, 0, minute);
        state = await loadEngineState(station);
      }
      // A minute is done when a pass over it writes nothing new (a fill may open a position whose stop
      // is crossed in the same minute; a liquidation changes the account's figures).
      for (let pass = 0; pass < 10; pass++) {
        if (!(await tick(minute, state, result))) break;
        state = await loadEngineState(station);
      }
      t = minute;
      result.minutes++;
      if (result.minutes % 1440 === 0) await saveProgress(station, t);
    }
    await handleClosesUpTo(to);
    await saveProgress(station, to);
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

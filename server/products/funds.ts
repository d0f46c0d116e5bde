/**
 * Fund products (DOMAIN.md "Funds"): a small catalogue with a simulated daily NAV, bought and sold at the
 * day's NAV from the main account.
 *
 * Rules decided here:
 * - The NAV moves once per A-share trading day (the market's calendar and clock mode): from 1.0000 at the
 *   fund's inception, each day's return is drift + volatility × a normal draw seeded by MARKET_SEED, the
 *   fund's code and the day, so the same seed gives the same history on every station. "The day's NAV" is
 *   that of the current trading day, or of the last one on a day without trading.
 * - A purchase of `amount` pays the purchase fee out of it and buys (amount − fee) ÷ NAV units, rounded down
 *   to 0.01 unit. A redemption of units receives units × NAV less the redemption fee, tiered by holding
 *   period per purchase lot, first in first out (fund-redemption.ts). Both at any hour.
 * - Exchange-traded funds are not here: they trade as instruments of the market (catalogue, buy.do).
 * - Holdings are not money in the ledger: the ledger holds what was paid and received ('fund_buy',
 *   'fund_sell'), the holding the units and their cost.
 */
import { toMajor, toMinor } from '../../src/shared/money';
import { fundPurchase } from '../../src/shared/fund-purchase';
import type {
  FundDetail,
  FundHolding,
  FundHoldings,
  FundProduct,
  FundTrade,
  FundType,
} from '../../src/shared/api/funds';
import type { Page } from '../../src/shared/api/types';
import type { Selectable } from 'kysely';
import { AppError, runOnce, storedAnswer, type FundTradesTable, type Station, type Tx } from '../platform';
import {
  hashSeed,
  mixSeed,
  SeededRandom,
  dayOfDate,
  dateOfDay,
  DAY_MS,
  hoursFor,
  isTradingDay,
  localDay,
  type MarketHours,
} from '../market';
import type { FundTerms } from '../config';
import { lockAccount, post, postingAgainst } from '../ledger';
import { amountToMinor } from '../wallet';
import { redemptionFee, shortHoldRate } from './fund-redemption';
import { FUND_CATALOGUE, type FundSpec } from './fund-catalogue';

/** A fund's fees and smallest purchase: settings.products.funds.terms (by code, else the default). */
export function fundTerms(station: Station, code: string): FundTerms {
  const { terms } = station.config.settings.products.funds;
  return terms.byCode[code] ?? terms.default;
}

const TRADING_DAYS_PER_YEAR = 250;
/** The NAV chart's default length and the longest history one call returns (trading days). */
export const NAV_HISTORY_DEFAULT = 250;
export const NAV_HISTORY_MAX = 1000;

function roundNav(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** NAV paths per (seed, clock mode, fund): computed once as far as asked, extended when time goes on. */
interface NavPath {
  hours: MarketHours;
  days: number[];
  navs: number[];
  rng: (day: number) => number;
  spec: FundSpec;
}
const paths = new Map<string, NavPath>();

function navPath(station: Station, spec: FundSpec): NavPath {
  const key = `${station.config.marketSeed}|${station.config.clockMode}|${spec.code}`;
  let path = paths.get(key);
  if (!path) {
    const base = hashSeed(station.config.marketSeed, 'fund-nav', spec.code);
    const hours = hoursFor('a', station.config.clockMode);
    let first = dayOfDate(spec.inception);
    while (!isTradingDay(first, hours)) first++;
    path = {
      hours,
      days: [first],
      navs: [1],
      spec,
      rng: (day) => new SeededRandom(mixSeed(base, day, 11)).normal(),
    };
    paths.set(key, path);
  }
  return path;
}

/** Extends the path to `day` and answers the index of the last trading day at or before it. */
function indexAt(path: NavPath, day: number): number {
  const { spec } = path;
  const drift = spec.annualDrift / TRADING_DAYS_PER_YEAR;
  const vol = spec.annualVol / Math.sqrt(TRADING_DAYS_PER_YEAR);
  let last = path.days[path.days.length - 1]!;
  while (last < day) {
    last++;
    if (!isTradingDay(last, path.hours)) continue;
    const previous = path.navs[path.navs.length - 1]!;
    const change = Math.max(-0.2, drift + vol * path.rng(last));
    path.days.push(last);
    path.navs.push(Math.max(0.01, roundNav(previous * (1 + change))));
  }
  let i = path.days.length - 1;
  while (i > 0 && path.days[i]! > day) i--;
  return i;
}

function specOf(code: string): FundSpec {
  const spec = FUND_CATALOGUE.find((f) => f.code === code);
  if (!spec) throw new AppError('NOT_FOUND');
  return spec;
}

/** The NAV that trades at `now`: the current A-share trading day's, or the last one's. */
export function navAt(
  station: Station,
  code: string,
  now = station.clock.now(),
): { nav: number; day: number } {
  const path = navPath(station, specOf(code));
  const i = indexAt(path, localDay(now, path.hours.timeZone));
  return { nav: path.navs[i]!, day: path.days[i]! };
}

function toProduct(station: Station, spec: FundSpec, now: number): FundProduct {
  const path = navPath(station, spec);
  const i = indexAt(path, localDay(now, path.hours.timeZone));
  const nav = path.navs[i]!;
  const previous = path.navs[Math.max(0, i - 1)]!;
  const yearAgo = path.navs[Math.max(0, i - TRADING_DAYS_PER_YEAR)]!;
  const terms = fundTerms(station, spec.code);
  const { shortHold } = station.config.settings.products.funds;
  return {
    code: spec.code,
    name: spec.name,
    type: spec.type,
    riskLevel: spec.riskLevel,
    nav,
    navDate: dateOfDay(path.days[i]!),
    dayChangePct: Number((nav / previous - 1).toFixed(6)),
    yearReturnPct: Number((nav / yearAgo - 1).toFixed(6)),
    ...terms,
    shortHoldDays: shortHold.days,
    shortHoldRedeemFeeRate: shortHoldRate(shortHold, spec.type, terms.redeemFeeRate),
  };
}

export function listFunds(station: Station, type?: FundType): FundProduct[] {
  const now = station.clock.now();
  return FUND_CATALOGUE.filter((f) => type === undefined || f.type === type).map((f) =>
    toProduct(station, f, now),
  );
}

export function fundDetail(station: Station, code: string, days = NAV_HISTORY_DEFAULT): FundDetail {
  const spec = specOf(code);
  const now = station.clock.now();
  const path = navPath(station, spec);
  const i = indexAt(path, localDay(now, path.hours.timeZone));
  const from = Math.max(0, i - Math.min(days, NAV_HISTORY_MAX) + 1);
  const history: [number, number][] = [];
  for (let k = from; k <= i; k++) history.push([path.days[k]! * DAY_MS, path.navs[k]!]);
  return { fund: toProduct(station, spec, now), history };
}

function toTrade(row: Selectable<FundTradesTable>): FundTrade {
  return {
    id: row.id,
    code: row.fund_code,
    name: FUND_CATALOGUE.find((f) => f.code === row.fund_code)?.name ?? row.fund_code,
    side: row.side,
    units: row.units / 100,
    nav: row.nav,
    amount: toMajor(row.amount),
    fee: toMajor(row.fee),
    createdAt: row.created_at,
  };
}

/** buy.do of a fund: `amount` (major units) from the main account at the day's NAV. */
export async function buyFund(
  station: Station,
  userId: number,
  input: { code: string; amount: number; requestId: string },
): Promise<FundTrade> {
  const call = 'fundBuy';
  const earlier = await storedAnswer<FundTrade>(station.db, userId, input.requestId, call);
  if (earlier !== undefined) return earlier;
  const spec = specOf(input.code);
  const terms = fundTerms(station, spec.code);
  const amount = amountToMinor(input.amount);
  if (amount < toMinor(terms.minPurchase)) {
    throw new AppError('BELOW_MINIMUM', {
      msgKey: 'FUND_BELOW_MINIMUM',
      params: { min: terms.minPurchase.toFixed(2) },
    });
  }
  const now = station.clock.now();
  const { nav } = navAt(station, spec.code, now);
  // The rule the confirm sheet shows too (src/shared/fund-purchase.ts).
  const { fee, unitHundredths: units } = fundPurchase(amount, terms.purchaseFeeRate, nav);
  if (units <= 0)
    throw new AppError('BELOW_MINIMUM', {
      msgKey: 'FUND_BELOW_MINIMUM',
      params: { min: terms.minPurchase.toFixed(2) },
    });

  return runOnce(station.db, { userId, requestId: input.requestId, call, now }, async (trx) => {
    const account = await lockAccount(trx, station.dialect, userId, 'main');
    if (account.balance - account.frozen < amount) throw new AppError('INSUFFICIENT_FUNDS');
    const trade = await trx
      .insertInto('fund_trades')
      .values({
        user_id: userId,
        fund_code: spec.code,
        side: 'buy',
        units,
        nav,
        amount,
        fee,
        created_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await post(
      trx,
      postingAgainst('funds', {
        accountId: account.id,
        userId,
        type: 'fund_buy',
        amount: -amount,
        time: now,
        refType: 'fund_trade',
        refId: trade.id,
        note: `${spec.code} ×${(units / 100).toFixed(2)} @${nav}`,
      }),
    );
    await trx
      .insertInto('fund_holdings')
      .values({ user_id: userId, fund_code: spec.code, units, cost: amount, updated_at: now })
      .onConflict((oc) =>
        oc.columns(['user_id', 'fund_code']).doUpdateSet((eb) => ({
          units: eb('fund_holdings.units', '+', units),
          cost: eb('fund_holdings.cost', '+', amount),
          updated_at: now,
        })),
      )
      .execute();
    return toTrade(trade);
  });
}

/** Redeems `units` (2 decimals) of a holding at the day's NAV into the main account. */
export async function sellFund(
  station: Station,
  userId: number,
  input: { code: string; units: number; requestId: string },
): Promise<FundTrade> {
  const call = 'fundSell';
  const earlier = await storedAnswer<FundTrade>(station.db, userId, input.requestId, call);
  if (earlier !== undefined) return earlier;
  const spec = specOf(input.code);
  const units = Math.round(input.units * 100);
  if (!Number.isFinite(input.units) || units <= 0 || Math.abs(input.units * 100 - units) > 1e-6) {
    throw new AppError('VALIDATION', { fields: { units: 'invalid' } });
  }
  const now = station.clock.now();
  const { nav } = navAt(station, spec.code, now);

  return runOnce(station.db, { userId, requestId: input.requestId, call, now }, async (trx) => {
    const account = await lockAccount(trx, station.dialect, userId, 'main');
    const holding = await trx
      .selectFrom('fund_holdings')
      .selectAll()
      .where('user_id', '=', userId)
      .where('fund_code', '=', spec.code)
      .executeTakeFirst();
    if (!holding || holding.units < units) {
      throw new AppError('ABOVE_MAXIMUM', {
        msgKey: 'FUND_UNITS_ABOVE_HELD',
        params: { units: ((holding?.units ?? 0) / 100).toFixed(2) },
      });
    }
    const { gross, fee } = await redemptionOf(trx, station, userId, spec, { units, nav, now });
    const received = gross - fee;
    const costPart = Math.round((holding.cost * units) / holding.units);
    const trade = await trx
      .insertInto('fund_trades')
      .values({
        user_id: userId,
        fund_code: spec.code,
        side: 'sell',
        units,
        nav,
        amount: received,
        fee,
        created_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (received > 0) {
      await post(
        trx,
        postingAgainst('funds', {
          accountId: account.id,
          userId,
          type: 'fund_sell',
          amount: received,
          time: now,
          refType: 'fund_trade',
          refId: trade.id,
          note: `${spec.code} ×${(units / 100).toFixed(2)} @${nav}`,
        }),
      );
    }
    if (holding.units === units) {
      await trx
        .deleteFrom('fund_holdings')
        .where('user_id', '=', userId)
        .where('fund_code', '=', spec.code)
        .execute();
    } else {
      await trx
        .updateTable('fund_holdings')
        .set({ units: holding.units - units, cost: holding.cost - costPart, updated_at: now })
        .where('user_id', '=', userId)
        .where('fund_code', '=', spec.code)
        .execute();
    }
    return toTrade(trade);
  });
}

/** The gross value and tiered fee of redeeming `units` now, over the holder's purchase lots (FIFO). */
async function redemptionOf(
  trx: Tx,
  station: Station,
  userId: number,
  spec: FundSpec,
  redeem: { units: number; nav: number; now: number },
) {
  const trades = await trx
    .selectFrom('fund_trades')
    .select(['side', 'units', 'created_at'])
    .where('user_id', '=', userId)
    .where('fund_code', '=', spec.code)
    .orderBy('id')
    .execute();
  const lots = trades
    .filter((t) => t.side === 'buy')
    .map((t) => ({ units: t.units, boughtAt: t.created_at }));
  const soldBefore = trades.filter((t) => t.side === 'sell').reduce((sum, t) => sum + t.units, 0);
  const { shortHold } = station.config.settings.products.funds;
  const rate = fundTerms(station, spec.code).redeemFeeRate;
  return redemptionFee(lots, soldBefore, redeem.units, {
    now: redeem.now,
    nav: redeem.nav,
    rate,
    shortRate: shortHoldRate(shortHold, spec.type, rate),
    shortDays: shortHold.days,
  });
}

export async function fundHoldings(station: Station, userId: number): Promise<FundHoldings> {
  const rows = await station.db
    .selectFrom('fund_holdings')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('fund_code')
    .execute();
  const now = station.clock.now();
  let total = 0;
  const holdings: FundHolding[] = rows.map((row) => {
    const spec = FUND_CATALOGUE.find((f) => f.code === row.fund_code);
    const nav = spec ? navAt(station, spec.code, now).nav : 0;
    const value = toMinor((row.units / 100) * nav);
    total += value;
    return {
      code: row.fund_code,
      name: spec?.name ?? row.fund_code,
      units: row.units / 100,
      nav,
      marketValue: toMajor(value),
      cost: toMajor(row.cost),
      pnl: toMajor(value - row.cost),
    };
  });
  return { holdings, totalValue: toMajor(total) };
}

export async function listFundTrades(
  station: Station,
  userId: number,
  query: { pageNum: number; pageSize: number },
): Promise<Page<FundTrade>> {
  const base = station.db.selectFrom('fund_trades').where('user_id', '=', userId);
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('id', 'desc')
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize)
    .execute();
  return { list: rows.map(toTrade), total: Number(total), pageNum: query.pageNum, pageSize: query.pageSize };
}

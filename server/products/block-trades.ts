/**
 * Block trades (DOMAIN.md "New shares, block trades, VIP picks"): each local trading day the station offers
 * a few A-share and STAR stocks at a discount to the current price, with a minimum size and a time window.
 * Buying one opens a position through the trading code (openPositionTx: margin and buy fees in the ledger)
 * that is T+1 like any A-share purchase.
 *
 * Rules decided here:
 * - The terms are settings (settings.products.blockTrades: offers per day, price cap, discount range,
 *   minimum sizes, windows). The offers of a day are generated from MARKET_SEED, the day and those terms,
 *   never stored: the same seed gives the same offers on every process. Only listed stocks priced at most
 *   the price cap (¥100 by default, reference price) are offered, so the minimum size fits a new account.
 * - The discount applies to the price at the moment of purchase; the offer price never goes below the day's
 *   limit-down price and lies on the tick.
 * - Windows are local Shanghai times (in always-open mode the whole simulated day: productWindow); before
 *   the window a purchase is refused as not yet open, after it as closed (OUTSIDE_TRADING_HOURS with the
 *   window's own message). The market must also be in a session.
 * - Leverage is one of the market's list (default 1). There is no total size: an offer is not used up.
 */
import type { AccountRiskState } from '../../src/shared/risk';
import type { Selectable } from 'kysely';
import { toMajor } from '../../src/shared/money';
import type { BlockTradeOffer, BlockTradeRecord } from '../../src/shared/api/dzvip';
import type { Page } from '../../src/shared/api/types';
import {
  AppError,
  assertFields,
  lotsProblem,
  runOnce,
  storedAnswer,
  type BlockTradeBuysTable,
  type PositionRow,
  type Station,
} from '../platform';
import {
  roundToTick,
  hashSeed,
  dateOfDay,
  hoursFor,
  isTradingDay,
  localDay,
  localMinuteToUtc,
  type Instrument,
  type MarketHours,
} from '../market';
import { requireKyc } from '../identity';
import { lockAccount } from '../ledger';
import {
  assertLeverage,
  openingCost,
  openPositionTx,
  maxLotsPerOrder,
  sharesPerLot,
  accountRiskStateOf,
} from '../trading';
import { matchesKeyword, pageOfPurchases, purchasedPosition } from './product-purchases';

/** The A-share market's hours in the station's clock mode: offers and picks follow its days. */
export function cnHours(station: Station): MarketHours {
  return hoursFor('a', station.market.clockMode);
}

/** The A-share market's own time zone (Asia/Shanghai), also when the clock mode keeps every market open. */
export function cnTimeZone(): string {
  return hoursFor('a', 'real').timeZone;
}

/** The local day of `now` (Asia/Shanghai) as its number and its key, and whether it trades. */
export function productDay(station: Station, now: number): { day: number; key: string; trading: boolean } {
  const hours = cnHours(station);
  // In always-open mode the simulated day is the UTC day, as the markets' (sessions.ts).
  const day = localDay(now, alwaysOpen(station) ? hours.timeZone : cnTimeZone());
  return { day, key: dateOfDay(day), trading: isTradingDay(day, hours) };
}

/** The instant of a local minute of `day` in Shanghai. */
export function localTime(day: number, minute: number): number {
  return localMinuteToUtc(day, minute, cnTimeZone());
}

function alwaysOpen(station: Station): boolean {
  return station.market.clockMode === 'always-open';
}

/**
 * A product's window on `day` (productDay): its local Shanghai minutes [opens, closes), or in always-open
 * mode the whole simulated day, so that, as every market trades around the clock there, every product can
 * be tried at any hour (a demo or a newcomer's first visit never finds every offer "ended").
 */
export function productWindow(
  station: Station,
  day: number,
  [opens, closes]: readonly [number, number],
): { opensAt: number; closesAt: number } {
  if (alwaysOpen(station)) {
    const zone = cnHours(station).timeZone;
    return { opensAt: localMinuteToUtc(day, 0, zone), closesAt: localMinuteToUtc(day + 1, 0, zone) };
  }
  return { opensAt: localTime(day, opens), closesAt: localTime(day, closes) };
}

/** Listed A-share and STAR stocks within `priceCap`, ordered by a seeded hash of the day and `tag`. */
export function seededCandidates(
  station: Station,
  tag: string,
  day: number,
  now: number,
  priceCap: number,
): Instrument[] {
  const seed = station.config.marketSeed;
  return station.market.instruments
    .filter(
      (i) =>
        (i.market === 'a' || i.market === 'star') &&
        i.referencePrice <= priceCap &&
        station.market.isListed(i, now),
    )
    .map((i) => ({ i, h: hashSeed(seed, tag, day, i.code) }))
    .sort((a, b) => a.h - b.h || (a.i.code < b.i.code ? -1 : 1))
    .map((x) => x.i);
}

/** SUSPENDED or OUTSIDE_TRADING_HOURS unless the instrument trades now. */
export function assertTrading(station: Station, instrument: Instrument, now: number): void {
  const status = station.market.status(instrument, now);
  if (status === 'suspended') throw new AppError('SUSPENDED');
  if (status !== 'trading') throw new AppError('OUTSIDE_TRADING_HOURS');
}

/** "HH:MM" of an instant in Shanghai, for messages. */
export function localClock(t: number): string {
  const formatter = new Intl.DateTimeFormat('en-GB', {
    timeZone: cnTimeZone(),
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return formatter.format(new Date(t));
}

interface OfferPlan {
  instrument: Instrument;
  discount: number;
  minLots: number;
  maxLots: number;
  opensAt: number;
  closesAt: number;
}

/** The offers of the day of `now`, in order (none on a non-trading day). */
export function offerPlans(station: Station, now: number): OfferPlan[] {
  const { day, trading } = productDay(station, now);
  if (!trading) return [];
  const seed = station.config.marketSeed;
  const terms = station.config.settings.products.blockTrades;
  const { min, max } = terms.discountPercent;
  return seededCandidates(station, 'dz', day, now, terms.priceCap)
    .slice(0, terms.offersPerDay)
    .map((instrument, index) => {
      const h = hashSeed(seed, 'dz-terms', day, instrument.code);
      const window = terms.windows[index % terms.windows.length]!;
      return {
        instrument,
        // Whole percent from min to max (the default 3…12%: 0.03 + k / 100, as generated before).
        discount: min / 100 + (h % (max - min + 1)) / 100,
        minLots: terms.minLotsChoices[(h >>> 8) % terms.minLotsChoices.length]!,
        maxLots: maxLotsPerOrder(station.config.settings, instrument.market),
        ...productWindow(station, day, window),
      };
    });
}

/** The offer price now: the current price less the discount, on the tick, never below limit-down. */
function offerPrice(station: Station, plan: OfferPlan, now: number): { price: number; current: number } {
  const detail = station.market.detail(plan.instrument, now);
  const discounted = roundToTick(detail.price * (1 - plan.discount), plan.instrument.tick);
  const floor = detail.limitDown ?? 0;
  return { price: Math.max(discounted, floor), current: detail.price };
}

function offerView(station: Station, plan: OfferPlan, now: number): BlockTradeOffer {
  const { price, current } = offerPrice(station, plan, now);
  const { instrument } = plan;
  return {
    code: instrument.code,
    name: instrument.name,
    market: instrument.market,
    currentPrice: current,
    price,
    discount: Number(plan.discount.toFixed(4)),
    minLots: plan.minLots,
    maxLots: plan.maxLots,
    lotSize: sharesPerLot(station, instrument),
    leverages: [...station.config.settings.leverage[instrument.market]],
    opensAt: plan.opensAt,
    closesAt: plan.closesAt,
    status: now < plan.opensAt ? 'upcoming' : now < plan.closesAt ? 'open' : 'closed',
  };
}

/** getDzList.do: today's offers with their prices now, optionally filtered by a keyword. */
export function listOffers(station: Station, keyword = ''): BlockTradeOffer[] {
  const now = station.clock.now();
  return offerPlans(station, now)
    .filter((plan) => matchesKeyword(plan.instrument, keyword))
    .map((plan) => offerView(station, plan, now));
}

export interface BlockTradeOrder {
  code: string;
  lots: number;
  leverage?: number | undefined;
  requestId: string;
}

function recordView(
  station: Station,
  row: Selectable<BlockTradeBuysTable>,
  position: PositionRow,
  instrument: Instrument,
  account?: AccountRiskState,
): BlockTradeRecord {
  return {
    id: row.id,
    code: row.code,
    name: instrument.name,
    market: position.market,
    lots: row.lots,
    shares: position.shares,
    price: row.price,
    marketPrice: row.market_price,
    discount: row.discount,
    leverage: position.leverage,
    amount: toMajor(position.open_value),
    fee: toMajor(position.buy_fee),
    createdAt: row.created_at,
    position: purchasedPosition(station, position, instrument, account),
  };
}

/** buyStockDz.do: buys lots of an open offer at its price now; the position is T+1. */
export async function buyBlockTrade(
  station: Station,
  userId: number,
  order: BlockTradeOrder,
): Promise<BlockTradeRecord> {
  const call = 'buyStockDz';
  const earlier = await storedAnswer<BlockTradeRecord>(station.db, userId, order.requestId, call);
  if (earlier !== undefined) return earlier;

  const now = station.clock.now();
  const code = order.code.trim().toUpperCase();
  const plan = offerPlans(station, now).find((p) => p.instrument.code === code);
  if (!plan) throw new AppError('NOT_FOUND', { msgKey: 'DZ_OFFER_NOT_FOUND' });
  const { instrument } = plan;
  assertFields({ lots: lotsProblem(order.lots, plan.maxLots) });
  if (order.lots < plan.minLots) {
    throw new AppError('BELOW_MINIMUM', { msgKey: 'DZ_BELOW_MIN_LOTS', params: { min: plan.minLots } });
  }
  const leverage = order.leverage ?? 1;
  assertLeverage(leverage, station.config.settings.leverage[instrument.market]);
  await requireKyc(station, userId, 'trading');
  if (now < plan.opensAt) {
    throw new AppError('OUTSIDE_TRADING_HOURS', {
      msgKey: 'DZ_NOT_OPEN',
      params: { time: localClock(plan.opensAt) },
    });
  }
  if (now >= plan.closesAt) throw new AppError('OUTSIDE_TRADING_HOURS', { msgKey: 'DZ_CLOSED' });
  assertTrading(station, instrument, now);
  const { price, current } = offerPrice(station, plan, now);
  const { key } = productDay(station, now);
  const accountType = station.config.settings.tradingAccount[instrument.market];

  return runOnce(station.db, { userId, requestId: order.requestId, call, now }, async (trx) => {
    const account = await lockAccount(trx, station.dialect, userId, accountType);
    const cost = openingCost(station, instrument, order.lots, leverage, price);
    if (account.balance - account.frozen < cost.total) throw new AppError('INSUFFICIENT_FUNDS');
    const position = await openPositionTx(trx, station, {
      instrument,
      account,
      direction: 'long',
      lots: order.lots,
      leverage,
      price,
      stopProfit: null,
      stopLoss: null,
      now,
    });
    const values = {
      user_id: userId,
      day_key: key,
      code: instrument.code,
      lots: order.lots,
      price,
      market_price: current,
      discount: Number(plan.discount.toFixed(4)),
      position_id: position.id,
      created_at: now,
    };
    const { id } = await trx
      .insertInto('block_trade_buys')
      .values(values)
      .returning('id')
      .executeTakeFirstOrThrow();
    const riskState = await accountRiskStateOf(trx, station, position.account_id);
    return recordView(station, { id, ...values }, position, instrument, riskState);
  });
}

/** buyStockDzList.do: the user's block-trade purchases, newest first, each with its position now. */
export async function listBlockTrades(
  station: Station,
  userId: number,
  query: { pageNum: number; pageSize: number },
): Promise<Page<BlockTradeRecord>> {
  return pageOfPurchases(station, 'block_trade_buys', userId, query, (row, position, instrument, account) =>
    recordView(station, row, position, instrument, account),
  );
}

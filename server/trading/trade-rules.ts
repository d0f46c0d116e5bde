/**
 * The trading rules every order checks before it touches money: what a code trades as and how many shares a
 * lot (contract) holds, the most lots per order, the price limits and the sides the stops must lie on.
 *
 * - Indexes trade CFD-style and futures by contract: lots are contracts, shares = contracts × multiplier
 *   (the futures contract's, or the index setting's units of its own currency per point), so value =
 *   price × shares × the settlement rate everywhere (1 unless an index is quoted in another currency).
 * - Buying at limit-up and selling at limit-down are refused (PRICE_LIMIT).
 * - Stops must lie on the winning side (stop profit) and the losing side (stop loss) of the current price:
 *   above and below it for a long, below and above it for a short.
 * - Shorts: indexes and futures always; stocks only when the shortStocks setting allows.
 * - A trade inside a competition also keeps to the competition's limits (TradeLimits): its markets, its
 *   largest leverage and whether it allows shorts. They narrow these rules, never replace them.
 */
import type { Direction, Market } from '../../src/shared/api/types';
import { settlementRate as rateBetween } from '../../src/shared/pnl';
import { validStops } from '../../src/shared/risk';
import { marketWithinLimits, shortWithinLimits, type TradeLimits } from '../../src/shared/trading-rules';
import type { ContractMarket, Settings } from '../config';
import { AppError, type Station } from '../platform';
import type { Instrument } from '../market';

/** Limits a trade keeps to on top of the market's own rules: a competition's (server/competitions). */
export type { TradeLimits };

/** Refuses a market the limits do not trade. */
export function assertMarketAllowed(market: Market, limits: TradeLimits | null): void {
  if (!marketWithinLimits(market, limits)) {
    throw new AppError('VALIDATION', {
      fields: { code: 'invalid' },
      msgKey: 'COMPETITION_MARKET_NOT_ALLOWED',
    });
  }
}

/** Refuses a short where the market (stocks unless shortStocks) or the limits do not allow one. */
export function assertShortAllowed(
  direction: Direction,
  market: Market,
  settings: Settings,
  limits: TradeLimits | null,
): void {
  if (direction !== 'short') return;
  if (!isContractMarket(market) && !settings.shortStocks) {
    throw new AppError('VALIDATION', { fields: { direction: 'invalid' }, msgKey: 'SHORT_NOT_ALLOWED' });
  }
  if (!shortWithinLimits(limits)) {
    throw new AppError('VALIDATION', {
      fields: { direction: 'invalid' },
      msgKey: 'COMPETITION_SHORT_NOT_ALLOWED',
    });
  }
}

/** Which codes a buy call accepts: buy.do any market, buyIndex.do indexes only, buyFutures.do futures only. */
export type BuyVenue = 'any' | ContractMarket;

/** A code resolved for trading: its instrument, the API market and how many shares one lot holds. */
export interface Tradable {
  instrument: Instrument;
  market: Market;
  /** Stocks: shares per lot; indexes and futures: the contract multiplier (shares per contract). */
  unitsPerLot: number;
}

export function isContractMarket(market: Market): market is ContractMarket {
  return market === 'index' || market === 'futures';
}

/** Shares in one lot of a stock: the market's rule, or the instrument's board lot (Hong Kong). */
export function sharesPerLot(station: Station, instrument: Instrument): number {
  return station.config.settings.lotRules[instrument.market].sharesPerLot ?? instrument.lotSize;
}

/** Units of the index's own currency per point of one index contract (CFD-style; HSI HK$50, SPX US$50). */
export function indexMultiplier(settings: Settings, code: string): number {
  return settings.indexMultiplier.byCode[code] ?? settings.indexMultiplier.default;
}

/**
 * The settlement rate of a trade in `instrument` on `market` at `now` (src/shared/pnl.ts settlementRate):
 * an index contract is worth points × multiplier in the index's own currency, settled in the index account
 * at the day's flash-exchange rate (DOMAIN.md "Markets"); 1 for everything priced in its account's currency.
 */
export function settlementRate(
  station: Station,
  instrument: Instrument,
  market: Market,
  now: number,
): number {
  const { settings } = station.config;
  const accountCurrency = settings.accountCurrency[settings.tradingAccount[market]];
  if (instrument.currency === accountCurrency) return 1; // no rates to read on the hot path
  return rateBetween(station.market.exchangeRates(now).cnyPer, instrument.currency, accountCurrency);
}

/** The code as something tradable on `venue`, or NOT_FOUND. */
export function tradableOf(station: Station, code: string, venue: BuyVenue = 'any'): Tradable {
  const found = station.market.findTradable(code);
  if (!found || (venue !== 'any' && found.market !== venue)) throw new AppError('NOT_FOUND');
  const { instrument, market } = found;
  const unitsPerLot =
    market === 'index'
      ? indexMultiplier(station.config.settings, instrument.code)
      : (found.contractMultiplier ?? sharesPerLot(station, instrument));
  return { instrument, market, unitsPerLot };
}

/** Most lots (contracts) in one order of a market. */
export function maxLotsPerOrder(settings: Settings, market: Market): number {
  return isContractMarket(market)
    ? settings.contractRules[market].maxContractsPerOrder
    : settings.lotRules[market].maxLotsPerOrder;
}

/** DOMAIN.md: buying at limit-up or selling at limit-down is refused. */
export function assertPriceLimit(
  detail: { price: number; limitUp: number | null; limitDown: number | null },
  buying: boolean,
): void {
  if (buying && detail.limitUp !== null && detail.price >= detail.limitUp) throw new AppError('PRICE_LIMIT');
  if (!buying && detail.limitDown !== null && detail.price <= detail.limitDown) {
    throw new AppError('PRICE_LIMIT');
  }
}

/** Stops on the right side of `price` for the direction, with one message naming the rule. */
export function assertStops(
  direction: Direction,
  price: number,
  stops: { stopProfit?: number | undefined; stopLoss?: number | undefined },
): void {
  const long = direction === 'long';
  const { stopProfit: profitOk, stopLoss: lossOk } = validStops(direction, price, {
    stopProfit: stops.stopProfit ?? null,
    stopLoss: stops.stopLoss ?? null,
  });
  if (profitOk && lossOk) return;
  throw new AppError('VALIDATION', {
    fields: { ...(profitOk ? {} : { stopProfit: 'invalid' }), ...(lossOk ? {} : { stopLoss: 'invalid' }) },
    msgKey: long ? 'STOPS_LONG' : 'STOPS_SHORT',
  });
}

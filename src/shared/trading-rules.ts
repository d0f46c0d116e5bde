/**
 * The trading rules the station publishes (getProductSetting.do `trading`) and the order breakdown the buy
 * screen shows before the user confirms, computed with the station's own fee and margin rules
 * (src/shared/fees.ts, src/shared/margin.ts), so the screen's figures are the ones the order will charge.
 */
import type { AccountType, Direction, Market, StockMarket } from './api/types';
import { positionFees, type FeeBreakdown, type FeeSettings } from './fees';
import { borrowedFor, futuresMarginRate, leverageWithin, marginFor } from './margin';
import { applyRate, toMajor, toMinor } from './money';
import { holdingValue } from './pnl';
import { liquidationPrice, type RiskPosition } from './risk';

export interface TradingRules {
  /** The leverage multiples an order may choose, per market (DOMAIN.md: A 1,2,3,5,10 …). */
  leverage: Record<Market, number[]>;
  /** Most lots (contracts) in one order, per market. */
  maxLots: Record<Market, number>;
  /** Shares per lot of a stock market; null where the instrument's board lot applies (Hong Kong). */
  sharesPerLot: Record<StockMarket, number | null>;
  /** Which account trades which market (its available funds pay for the order). */
  tradingAccount: Record<Market, AccountType>;
  /** Whether buy.do may open a short on a stock (indexes and futures always may). */
  shortStocks: boolean;
  fees: FeeSettings;
  /** Yuan per point of one index contract: per code, `default` for any other. */
  indexMultiplier: { default: number; byCode: Record<string, number> };
  liquidationLine: number;
  warningLine: number;
  /** Deferred (overnight financing) fee per day on the borrowed value, a fraction (futures pay none). */
  deferredFeeRate: number;
  /** Futures margin rate per product (IF0 → IF), `default` for any other: leverage up to 1 ÷ the rate. */
  futuresMarginRate: { default: number; byProduct: Record<string, number> };
}

/** The leverage multiples an order of `code` may choose: the market's, for a future those within its margin. */
export function leverageChoices(
  rules: Pick<TradingRules, 'leverage' | 'futuresMarginRate'>,
  market: Market,
  code: string,
): number[] {
  const rate = market === 'futures' ? futuresMarginRate(rules.futuresMarginRate, code) : null;
  return leverageWithin(rules.leverage[market], rate);
}

/** Whether a market's orders may be short. */
export function canShort(rules: Pick<TradingRules, 'shortStocks'>, market: Market): boolean {
  return market === 'index' || market === 'futures' || rules.shortStocks;
}

/**
 * Limits a trade keeps to on top of the market's own rules: a competition's (its markets, its largest
 * leverage, whether it allows shorts). They narrow the rules above, never replace them; the station refuses
 * what they exclude (server/trading/trade-rules.ts) and the order form does not offer it.
 */
export interface TradeLimits {
  markets: readonly Market[];
  maxLeverage: number;
  allowShort: boolean;
}

/** Whether the limits (none: no limit) trade the market. */
export function marketWithinLimits(market: Market, limits: TradeLimits | null): boolean {
  return limits === null || limits.markets.includes(market);
}

/** Whether the limits (none: no limit) allow the leverage. */
export function leverageWithinLimits(leverage: number, limits: TradeLimits | null): boolean {
  return limits === null || leverage <= limits.maxLeverage;
}

/** Whether the limits (none: no limit) allow a short; the market's own rule (canShort) applies as well. */
export function shortWithinLimits(limits: TradeLimits | null): boolean {
  return limits === null || limits.allowShort;
}

export interface OrderInput {
  market: Market;
  /**
   * The instrument's code: a future's product sets its fee (without it, the default product's), and held
   * positions of the same code move with the new one (src/shared/risk.ts).
   */
  code?: string;
  direction: Direction;
  lots: number;
  /** Shares (stocks) or the contract multiplier (indexes, futures) in one lot. */
  unitsPerLot: number;
  /** The price the order fills at: the current price, or a limit order's trigger. */
  price: number;
  /**
   * Account-currency units per unit of the price's currency: the day's flash-exchange mid rate for an index
   * quoted in another currency than its account's (HSI, SPX…), else 1 (pnl.ts holdingValue).
   */
  fxRate?: number;
  leverage: number;
  /** The trading account's available funds, major units. */
  available: number;
  /** The account's other open positions valued now, when the screen has them (else none are counted). */
  holdings?: readonly RiskPosition[];
}

export interface OrderBreakdown {
  shares: number;
  /** Price × shares × the settlement rate: in the paying account's currency, major units. */
  value: number;
  margin: number;
  fees: FeeBreakdown['items'];
  feeTotal: number;
  /** What the order takes from the available funds: margin + fees. */
  cost: number;
  /** What is borrowed: a long's value − margin; a short borrows the instrument, worth its value. */
  borrowed: number;
  /**
   * The rule book's liquidation price (src/shared/risk.ts, unrounded): where the account's R reaches the
   * liquidation line, the account being its available funds after the order plus the new position (plus
   * `holdings` when the screen knows them); null when no positive price reaches it.
   */
  liquidationPrice: number | null;
  /** Overnight financing per day on the borrowed part of a long, major units. */
  deferredFeePerDay: number;
  availableAfter: number;
  /** The available funds do not cover the cost (the station would answer INSUFFICIENT_FUNDS). */
  insufficient: boolean;
}

/** What an order will cost and risk, with the station's rules (trading.ts buy: the same steps). */
export function orderBreakdown(input: OrderInput, rules: TradingRules): OrderBreakdown {
  const shares = input.lots * input.unitsPerLot;
  const valueMinor = holdingValue(input.price, shares, input.fxRate);
  const marginMinor = marginFor(valueMinor, input.leverage);
  const trade = {
    shares,
    value: valueMinor,
    contracts: input.lots,
    ...(input.code ? { code: input.code } : {}),
  };
  const fees = positionFees(input.market, input.direction, 'open', trade, rules.fees);
  const costMinor = marginMinor + fees.total;
  const availableMinor = toMinor(input.available);
  const opened: RiskPosition = {
    id: 0,
    code: input.code ?? '',
    direction: input.direction,
    shares,
    openValue: valueMinor,
    margin: marginMinor,
    price: input.price,
    fxRate: input.fxRate ?? 1,
  };
  const account = {
    cash: availableMinor - costMinor,
    borrowedCapital: 0,
    positions: [...(input.holdings ?? []), opened],
  };
  const liquidation = liquidationPrice(account, opened.code, rules.liquidationLine);
  // The deferred fee is charged on what a long borrowed (engine.ts day closes: open value − margin);
  // futures are margined, not financed (DOMAIN.md), and pay none.
  const financedMinor = input.market === 'futures' ? 0 : Math.max(0, valueMinor - marginMinor);
  return {
    shares,
    value: toMajor(valueMinor),
    margin: toMajor(marginMinor),
    fees: fees.items,
    feeTotal: toMajor(fees.total),
    cost: toMajor(costMinor),
    borrowed: toMajor(borrowedFor(valueMinor, marginMinor, input.direction)),
    liquidationPrice: liquidation,
    deferredFeePerDay: toMajor(applyRate(financedMinor, rules.deferredFeeRate)),
    availableAfter: toMajor(availableMinor - costMinor),
    insufficient: availableMinor < costMinor,
  };
}

/**
 * "Max you can buy": the most lots (1 … `limit`, the per-order maximum) whose margin and fees the available
 * funds cover at these terms, 0 when not even one. The cost grows with the lots (minimum fees included), so a
 * bisection over orderBreakdown finds it with the very rule the confirm sheet and the station apply.
 */
export function maxAffordableLots(
  input: Omit<OrderInput, 'lots'>,
  rules: TradingRules,
  limit: number,
): number {
  let low = 0;
  let high = Math.max(0, Math.floor(limit));
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (orderBreakdown({ ...input, lots: mid }, rules).insufficient) high = mid - 1;
    else low = mid;
  }
  return low;
}

/**
 * The transfer offered when the paying account is short of an order's cost (major units): the shortfall and
 * 1% of the cost more — the price may move before the user confirms — rounded up to a whole unit of the
 * currency; null when the other account cannot cover the shortfall itself.
 */
export function quickTransferAmount(cost: number, available: number, otherAvailable: number): number | null {
  const shortfallMinor = toMinor(cost) - toMinor(available);
  if (shortfallMinor <= 0 || toMinor(otherAvailable) < shortfallMinor) return null;
  const wantedMinor = Math.ceil((shortfallMinor + toMinor(cost) / 100) / 100) * 100;
  return toMajor(Math.min(wantedMinor, toMinor(otherAvailable)));
}

/** How a quantity is counted for people: board lots (A-shares, HK), single shares (US), or contracts. */
export type QuantityUnit = 'lots' | 'shares' | 'contracts';

/** The unit a market's quantities are shown in (spec §5: US stocks trade in shares, indexes and futures in contracts). */
export function quantityUnit(market: Market): QuantityUnit {
  if (market === 'index' || market === 'futures') return 'contracts';
  return market === 'us' ? 'shares' : 'lots';
}

/** Units in one lot of a code on a market: the stock's lot rule or board lot, or the contract multiplier. */
export function unitsPerLot(
  rules: TradingRules,
  market: Market,
  code: string,
  instrument: { lotSize?: number; multiplier?: number },
): number {
  if (market === 'index') return rules.indexMultiplier.byCode[code] ?? rules.indexMultiplier.default;
  if (market === 'futures') return instrument.multiplier ?? 1;
  return rules.sharesPerLot[market] ?? instrument.lotSize ?? 1;
}

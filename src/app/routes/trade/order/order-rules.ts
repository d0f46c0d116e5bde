/**
 * The order form's rules, pure: what the form may send, the most lots it offers, the cost and margin it shows,
 * and whether its stops make sense. The money rules themselves (fees, margin, liquidation, lots, the sides of
 * the stops, the leverage offered) are the shared ones the station applies too (src/shared/trading-rules.ts,
 * risk.ts, validation.ts); this module only puts them together as the form needs them.
 */
import type { Direction } from '../../../../shared/api/types';
import type { CallIn } from '../../../../shared/api/calls';
import { stopLossBeyondLiquidation, type RiskPosition } from '../../../../shared/risk';
import {
  canShort,
  leverageChoices,
  leverageWithinLimits,
  marketWithinLimits,
  maxAffordableLots,
  orderBreakdown,
  shortWithinLimits,
  unitsPerLot,
  type OrderBreakdown,
  type OrderInput,
  type TradeLimits,
  type TradingRules,
} from '../../../../shared/trading-rules';
import { checkLots, type ValidationKey } from '../../../../shared/validation';
import type { InstrumentKind, TradeInstrument } from '../../../api/trading-data';
import { checkStops, parsePrice } from '../trade-rules';

export type OrderType = 'market' | 'limit';

/** The order form's text fields. */
export type OrderField = 'lots' | 'triggerPrice' | 'stopProfit' | 'stopLoss';
export type OrderValues = Record<OrderField, string>;

/** What the form holds outside its text fields: chips. */
export interface OrderChoices {
  direction: Direction;
  orderType: OrderType;
  leverage: number;
}

/** What the order is checked against: the instrument as quoted now and the station's trading rules. */
export interface OrderContext {
  instrument: Pick<
    TradeInstrument,
    'code' | 'market' | 'price' | 'limitUp' | 'limitDown' | 'lotSize' | 'multiplier'
  >;
  rules: TradingRules;
  /** A competition's limits when the order goes to its accounts (they narrow the rules; none outside one). */
  limits?: TradeLimits | null;
}

export type TriggerProblem = 'triggerRequired' | 'triggerOutsideLimits';
export type StopsProblem = 'invalid' | 'side';
export type LeverageProblem = 'notOffered';

/** Each part of the order that is wrong, by the form's message slot; null where it is fine. */
export interface OrderProblems {
  lots: ValidationKey | null;
  triggerPrice: TriggerProblem | null;
  stops: StopsProblem | null;
  leverage: LeverageProblem | null;
}

/** Most lots (contracts) one order of the instrument may have (the station's per-market maximum). */
export function maxLotsPerOrder(context: OrderContext): number {
  return context.rules.maxLots[context.instrument.market];
}

/** The lots typed, when they are a good quantity; 0 otherwise (the summary then shows nothing bought). */
export function typedLots(lotsText: string, maxLots: number): number {
  return checkLots(lotsText.trim(), maxLots) === null ? Number(lotsText) : 0;
}

/** The stepper's next quantity: one lot more or less, never below 1 nor above the maximum. */
export function steppedLots(lotsText: string, step: 1 | -1, maxLots: number): number {
  return step > 0 ? Math.min(maxLots, (Number(lotsText) || 0) + 1) : Math.max(1, (Number(lotsText) || 1) - 1);
}

/**
 * A limit order's trigger: required, and within the day's price limits (DOMAIN.md: the station refuses a
 * trigger outside them, TRIGGER_OUTSIDE_LIMITS). A market order has none to check.
 */
export function checkTrigger(
  orderType: OrderType,
  trigger: number | null,
  limits: { limitUp: number | null; limitDown: number | null },
): TriggerProblem | null {
  if (orderType !== 'limit') return null;
  if (trigger === null) return 'triggerRequired';
  const above = limits.limitUp !== null && trigger > limits.limitUp;
  const below = limits.limitDown !== null && trigger < limits.limitDown;
  return above || below ? 'triggerOutsideLimits' : null;
}

/**
 * The leverage multiples the form offers: the market's list, for a future only those within its margin
 * rate (DOMAIN.md; the station refuses any other, LEVERAGE_ABOVE_MARGIN_RATE), and inside a competition
 * none above its largest (COMPETITION_LEVERAGE_ABOVE_MAX).
 */
export function offeredLeverages(
  rules: Pick<TradingRules, 'leverage' | 'futuresMarginRate'>,
  instrument: Pick<TradeInstrument, 'market' | 'code'>,
  limits: TradeLimits | null = null,
): number[] {
  return leverageChoices(rules, instrument.market, instrument.code).filter((leverage) =>
    leverageWithinLimits(leverage, limits),
  );
}

/** The leverage must be one the form offers (offeredLeverages). */
export function checkLeverage(
  leverage: number,
  rules: Pick<TradingRules, 'leverage' | 'futuresMarginRate'>,
  instrument: Pick<TradeInstrument, 'market' | 'code'>,
  limits: TradeLimits | null = null,
): LeverageProblem | null {
  return offeredLeverages(rules, instrument, limits).includes(leverage) ? null : 'notOffered';
}

/** Whether the form offers a short: the market's rule (canShort) and, inside a competition, its own. */
export function shortOffered(
  rules: Pick<TradingRules, 'shortStocks'>,
  market: TradeInstrument['market'],
  limits: TradeLimits | null = null,
): boolean {
  return canShort(rules, market) && shortWithinLimits(limits);
}

/** Whether the order may be placed at all where it goes: a competition trades only its markets. */
export function marketOffered(market: TradeInstrument['market'], limits: TradeLimits | null = null): boolean {
  return marketWithinLimits(market, limits);
}

/** The price the order fills at: a limit order's trigger once typed, else the current price. */
export function fillPrice(orderType: OrderType, trigger: number | null, currentPrice: number): number {
  return orderType === 'limit' && trigger !== null ? trigger : currentPrice;
}

/** Everything wrong with the order as the form holds it (the form's one `validate`, before messages). */
export function orderProblems(
  values: OrderValues,
  choices: OrderChoices,
  context: OrderContext,
): OrderProblems {
  const { instrument, rules } = context;
  const trigger = parsePrice(values.triggerPrice);
  const price = fillPrice(choices.orderType, trigger, instrument.price);
  return {
    lots: checkLots(values.lots.trim(), maxLotsPerOrder(context)),
    triggerPrice: checkTrigger(choices.orderType, trigger, instrument),
    stops: checkStops(choices.direction, price, {
      stopProfit: parsePrice(values.stopProfit),
      stopLoss: parsePrice(values.stopLoss),
      stopProfitText: values.stopProfit,
      stopLossText: values.stopLoss,
    }),
    leverage: checkLeverage(choices.leverage, rules, instrument, context.limits ?? null),
  };
}

/** Whether the order may go to review: nothing in it is wrong. */
export function orderIsValid(problems: OrderProblems): boolean {
  return Object.values(problems).every((problem) => problem === null);
}

/** What the screen knows of the paying account for the cost, margin and liquidation price. */
export interface OrderAccount {
  /** The paying account's available funds, major units. */
  available: number;
  /** Its other open positions, valued now (the liquidation price is account-wide, DOMAIN.md). */
  holdings: readonly RiskPosition[];
  /** Account-currency units per unit of the price's currency (an index quoted in another currency), else 1. */
  fxRate: number;
}

/** The order's terms but its quantity, as the shared breakdown and "max you can buy" take them. */
export function orderTerms(
  choices: OrderChoices,
  price: number,
  context: OrderContext,
  account: OrderAccount,
): Omit<OrderInput, 'lots'> {
  const { instrument, rules } = context;
  return {
    market: instrument.market,
    code: instrument.code,
    direction: choices.direction,
    unitsPerLot: unitsPerLot(rules, instrument.market, instrument.code, instrument),
    price,
    fxRate: account.fxRate,
    leverage: choices.leverage,
    available: account.available,
    holdings: account.holdings,
  };
}

/** What the form shows of the order: its breakdown (cost, margin, fees…) and the most lots the funds cover. */
export interface OrderFigures {
  lots: number;
  breakdown: OrderBreakdown;
  /** The most lots the available funds cover at these terms (up to the per-order maximum). */
  affordableLots: number;
  /**
   * The liquidation price as the screen shows it (rounded to the price's digits), when a stop loss lies
   * beyond it (DOMAIN.md: accepted, with a warning naming both prices); null otherwise.
   */
  stopLossBeyond: number | null;
}

export function orderFigures(
  values: OrderValues,
  choices: OrderChoices,
  context: OrderContext,
  account: OrderAccount,
  digits: number,
): OrderFigures {
  const { rules } = context;
  const maxLots = maxLotsPerOrder(context);
  const lots = typedLots(values.lots, maxLots);
  const trigger = parsePrice(values.triggerPrice);
  const price = fillPrice(choices.orderType, trigger, context.instrument.price);
  const terms = orderTerms(choices, price, context, account);
  const breakdown = orderBreakdown({ ...terms, lots }, rules);
  const shownLiquidation =
    breakdown.liquidationPrice === null ? null : Number(breakdown.liquidationPrice.toFixed(digits));
  const stopLoss = parsePrice(values.stopLoss);
  const stopsFine = orderProblems(values, choices, context).stops === null;
  return {
    lots,
    breakdown,
    affordableLots: maxAffordableLots(terms, rules, maxLots),
    stopLossBeyond:
      stopsFine && stopLossBeyondLiquidation(choices.direction, stopLoss, shownLiquidation)
        ? shownLiquidation
        : null,
  };
}

const BUY_CALL = {
  stock: 'POST /user/buy.do',
  index: 'POST /user/buyIndex.do',
  futures: 'POST /user/buyFutures.do',
} as const;

type BuyKey = (typeof BUY_CALL)[InstrumentKind];
type WithoutRequestId<T> = Omit<T, 'requestId'>;

/** The station call an order is: a market order on its kind's buy call, a limit order on addOrder.do. */
export type OrderRequest =
  | { key: 'POST /user/addOrder.do'; input: WithoutRequestId<CallIn<'POST /user/addOrder.do'>> }
  | { key: BuyKey; input: WithoutRequestId<CallIn<'POST /user/buy.do'>> & { direction: Direction } };

/** The order as reviewed: the call and what it sends (the requestId is added per intent when it goes). */
export function orderRequest(
  kind: InstrumentKind,
  order: OrderChoices & {
    code: string;
    lots: number;
    trigger: number | null;
    stopProfit: number | null;
    stopLoss: number | null;
    /** The competition whose accounts the order goes to; absent for the user's own. */
    competitionId?: number | undefined;
  },
): OrderRequest {
  const sent = {
    code: order.code,
    lots: order.lots,
    leverage: order.leverage,
    ...(order.stopProfit !== null ? { stopProfit: order.stopProfit } : {}),
    ...(order.stopLoss !== null ? { stopLoss: order.stopLoss } : {}),
    ...(order.competitionId !== undefined ? { competitionId: order.competitionId } : {}),
  };
  if (order.orderType === 'limit' && order.trigger !== null) {
    // A limit order names its direction only when short (addOrder.do takes a long by default).
    const direction = order.direction === 'short' ? { direction: order.direction } : {};
    return { key: 'POST /user/addOrder.do', input: { ...sent, triggerPrice: order.trigger, ...direction } };
  }
  return { key: BUY_CALL[kind], input: { ...sent, direction: order.direction } };
}

/** The list an order lands in once placed: a limit order waits among the orders, a market order is a position. */
export function placedList(request: OrderRequest): 'positions' | 'orders' {
  return request.key === 'POST /user/addOrder.do' ? 'orders' : 'positions';
}

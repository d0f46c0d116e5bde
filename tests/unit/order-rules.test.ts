import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../server/config';
import { orderBreakdown, type TradingRules } from '../../src/shared/trading-rules';
import {
  checkLeverage,
  checkTrigger,
  fillPrice,
  orderFigures,
  orderIsValid,
  orderProblems,
  orderRequest,
  placedList,
  steppedLots,
  typedLots,
  type OrderChoices,
  type OrderContext,
  type OrderValues,
} from '../../src/app/routes/trade/order/order-rules';
import { checkInquiryCode, inquiryCode } from '../../src/app/routes/trade/inquiry-rules';

const s = DEFAULT_SETTINGS;
const rules: TradingRules = {
  leverage: s.leverage,
  maxLots: { a: 100, star: 100, hk: 100, us: 10_000, index: 50, futures: 20 },
  sharesPerLot: { a: 100, star: 100, hk: null, us: 1 },
  tradingAccount: s.tradingAccount,
  shortStocks: false,
  fees: s.fees,
  indexMultiplier: s.indexMultiplier,
  liquidationLine: s.liquidationLine,
  warningLine: s.warningLine,
  deferredFeeRate: s.deferredFeeRate,
  futuresMarginRate: s.futuresMarginRate,
};

/** An A-share at ¥10.00 whose day lies between ¥9.00 and ¥11.00. */
const aShare: OrderContext = {
  instrument: { code: '600000', market: 'a', price: 10, limitUp: 11, limitDown: 9, lotSize: 100 },
  rules,
};
/** A CFFEX index future (IF, 12% margin): 300 a point. */
const future: OrderContext = {
  instrument: {
    code: 'IF0',
    market: 'futures',
    price: 3800,
    limitUp: null,
    limitDown: null,
    lotSize: 1,
    multiplier: 300,
  },
  rules,
};

const values = (over: Partial<OrderValues> = {}): OrderValues => ({
  lots: '1',
  triggerPrice: '',
  stopProfit: '',
  stopLoss: '',
  ...over,
});
const market: OrderChoices = { direction: 'long', orderType: 'market', leverage: 1 };
const limit: OrderChoices = { ...market, orderType: 'limit' };

describe('what the order form may send', () => {
  it('a plain market order of one lot at 1× is good', () => {
    const problems = orderProblems(values(), market, aShare);
    expect(problems).toEqual({ lots: null, triggerPrice: null, stops: null, leverage: null });
    expect(orderIsValid(problems)).toBe(true);
  });

  it('refuses a limit price outside the day’s price limits, and a limit order without one', () => {
    expect(orderProblems(values({ triggerPrice: '11.01' }), limit, aShare).triggerPrice).toBe(
      'triggerOutsideLimits',
    );
    expect(orderProblems(values({ triggerPrice: '8.99' }), limit, aShare).triggerPrice).toBe(
      'triggerOutsideLimits',
    );
    expect(orderProblems(values({ triggerPrice: '' }), limit, aShare).triggerPrice).toBe('triggerRequired');
    expect(orderProblems(values({ triggerPrice: 'abc' }), limit, aShare).triggerPrice).toBe(
      'triggerRequired',
    );
    // The limits themselves are inside.
    expect(orderProblems(values({ triggerPrice: '11' }), limit, aShare).triggerPrice).toBeNull();
    expect(orderProblems(values({ triggerPrice: '9' }), limit, aShare).triggerPrice).toBeNull();
    expect(orderIsValid(orderProblems(values({ triggerPrice: '12' }), limit, aShare))).toBe(false);
  });

  it('a market order has no trigger to check, and a day without limits bounds none', () => {
    expect(checkTrigger('market', null, aShare.instrument)).toBeNull();
    expect(checkTrigger('limit', 99_999, { limitUp: null, limitDown: null })).toBeNull();
    expect(checkTrigger('limit', 11.5, { limitUp: 11, limitDown: null })).toBe('triggerOutsideLimits');
  });

  it('refuses lots over the market’s maximum, none, fractions and text, and counts them as nothing bought', () => {
    expect(orderProblems(values({ lots: '101' }), market, aShare).lots).toBe('lotsAboveMax');
    expect(orderProblems(values({ lots: '100' }), market, aShare).lots).toBeNull();
    expect(orderProblems(values({ lots: '' }), market, aShare).lots).toBe('lotsEmpty');
    expect(orderProblems(values({ lots: '0' }), market, aShare).lots).toBe('lotsBelowOne');
    expect(orderProblems(values({ lots: '1.5' }), market, aShare).lots).toBe('lotsNotWhole');
    expect(orderProblems(values({ lots: 'abc' }), market, aShare).lots).toBe('lotsNotNumber');
    // A future's maximum is its own (20 contracts here), not the stocks'.
    expect(orderProblems(values({ lots: '21' }), market, future).lots).toBe('lotsAboveMax');
    expect(typedLots('101', 100)).toBe(0);
    expect(typedLots(' 7 ', 100)).toBe(7);
  });

  it('refuses a stop on the wrong side of the price, for a long and for a short', () => {
    const short: OrderChoices = { ...market, direction: 'short' };
    // A long: stop profit above ¥10, stop loss below.
    expect(orderProblems(values({ stopProfit: '11', stopLoss: '9' }), market, aShare).stops).toBeNull();
    expect(orderProblems(values({ stopProfit: '9.5' }), market, aShare).stops).toBe('side');
    expect(orderProblems(values({ stopLoss: '10.5' }), market, aShare).stops).toBe('side');
    // A short: the other way round.
    expect(orderProblems(values({ stopProfit: '9', stopLoss: '11' }), short, aShare).stops).toBeNull();
    expect(orderProblems(values({ stopProfit: '11' }), short, aShare).stops).toBe('side');
    expect(orderProblems(values({ stopLoss: '9' }), short, aShare).stops).toBe('side');
    // A typed stop that is not a price.
    expect(orderProblems(values({ stopLoss: 'x' }), market, aShare).stops).toBe('invalid');
  });

  it('a limit order’s stops are judged against its trigger, not the price now', () => {
    // At ¥10 now, a stop loss of ¥9.80 is below; against a ¥9.50 trigger it is above: wrong for a long.
    const typed = values({ triggerPrice: '9.5', stopLoss: '9.8' });
    expect(orderProblems(typed, market, aShare).stops).toBeNull();
    expect(orderProblems(typed, limit, aShare).stops).toBe('side');
    expect(fillPrice('limit', 9.5, 10)).toBe(9.5);
    expect(fillPrice('limit', null, 10)).toBe(10);
    expect(fillPrice('market', 9.5, 10)).toBe(10);
  });

  it('refuses a leverage above the future’s margin-rate cap, and one the market does not offer', () => {
    // IF takes 12% margin: 8× (96%) is the most; 10× would take 120%.
    expect(checkLeverage(8, rules, future.instrument)).toBeNull();
    expect(checkLeverage(10, rules, future.instrument)).toBe('notOffered');
    expect(orderProblems(values(), { ...market, leverage: 10 }, future).leverage).toBe('notOffered');
    // A-shares offer 1, 2, 3, 5 and 10.
    expect(checkLeverage(10, rules, aShare.instrument)).toBeNull();
    expect(checkLeverage(4, rules, aShare.instrument)).toBe('notOffered');
  });
});

describe('the figures the order form shows', () => {
  const account = { available: 200, holdings: [], fxRate: 1 };

  it('cost and margin are the shared breakdown’s for the lots typed, at the trigger of a limit order', () => {
    const choices: OrderChoices = { direction: 'long', orderType: 'limit', leverage: 5 };
    const figures = orderFigures(values({ triggerPrice: '9.5' }), choices, aShare, account, 2);
    const expected = orderBreakdown(
      {
        market: 'a',
        code: '600000',
        direction: 'long',
        lots: 1,
        unitsPerLot: 100,
        price: 9.5,
        leverage: 5,
        available: 200,
      },
      rules,
    );
    expect(figures.lots).toBe(1);
    expect(figures.breakdown).toEqual(expected);
    // ¥950 at 5×: a fifth as margin, plus the ¥5 minimum commission and the transfer fee.
    expect(figures.breakdown.margin).toBe(190);
    expect(figures.breakdown.cost).toBe(195.01);
  });

  it('lots over the maximum cost nothing in the summary; "max you can buy" is what the funds cover', () => {
    const figures = orderFigures(values({ lots: '101' }), { ...market, leverage: 5 }, aShare, account, 2);
    expect(figures.lots).toBe(0);
    expect(figures.breakdown.margin).toBe(0);
    // ¥200 at 5× does not cover one lot of ¥1,000 (¥200 margin and fees); ¥500 covers two, not three.
    expect(figures.affordableLots).toBe(0);
    const two = orderFigures(values(), { ...market, leverage: 5 }, aShare, { ...account, available: 500 }, 2);
    expect(two.affordableLots).toBe(2);
    const rich = orderFigures(
      values(),
      { ...market, leverage: 5 },
      aShare,
      { ...account, available: 1e9 },
      2,
    );
    expect(rich.affordableLots).toBe(100);
  });

  it('warns of a stop loss beyond the liquidation price as shown, and not when the stops are wrong', () => {
    const choices: OrderChoices = { ...market, leverage: 5 };
    const plain = orderFigures(values(), choices, aShare, account, 2);
    const shown = Number(plain.breakdown.liquidationPrice!.toFixed(2));
    expect(shown).toBeGreaterThan(1);
    expect(orderFigures(values({ stopLoss: '1' }), choices, aShare, account, 2).stopLossBeyond).toBe(shown);
    expect(orderFigures(values({ stopLoss: '9.9' }), choices, aShare, account, 2).stopLossBeyond).toBeNull();
    // A stop loss above the price is refused (side), not warned about.
    expect(orderFigures(values({ stopLoss: '10.5' }), choices, aShare, account, 2).stopLossBeyond).toBeNull();
  });

  it('the stepper stays within 1 and the maximum', () => {
    expect(steppedLots('1', -1, 100)).toBe(1);
    expect(steppedLots('', -1, 100)).toBe(1);
    expect(steppedLots('100', 1, 100)).toBe(100);
    expect(steppedLots('abc', 1, 100)).toBe(1);
    expect(steppedLots('7', 1, 100)).toBe(8);
  });
});

describe('the call an order goes as', () => {
  const order = { code: '600000', lots: 3, leverage: 2, trigger: null, stopProfit: null, stopLoss: null };

  it('a market order goes to its kind’s buy call with its direction, without stops it has not', () => {
    const request = orderRequest('stock', { ...order, direction: 'long', orderType: 'market' });
    expect(request).toEqual({
      key: 'POST /user/buy.do',
      input: { code: '600000', lots: 3, leverage: 2, direction: 'long' },
    });
    expect(placedList(request)).toBe('positions');
    expect(orderRequest('index', { ...order, direction: 'short', orderType: 'market' }).key).toBe(
      'POST /user/buyIndex.do',
    );
    expect(orderRequest('futures', { ...order, direction: 'long', orderType: 'market' }).key).toBe(
      'POST /user/buyFutures.do',
    );
  });

  it('a limit order goes to addOrder.do at its trigger, naming its direction only when short', () => {
    const long = orderRequest('stock', {
      ...order,
      trigger: 9.5,
      stopLoss: 9,
      direction: 'long',
      orderType: 'limit',
    });
    expect(long).toEqual({
      key: 'POST /user/addOrder.do',
      input: { code: '600000', lots: 3, leverage: 2, stopLoss: 9, triggerPrice: 9.5 },
    });
    expect(placedList(long)).toBe('orders');
    const short = orderRequest('stock', { ...order, trigger: 9.5, direction: 'short', orderType: 'limit' });
    expect(short.input).toMatchObject({ direction: 'short', triggerPrice: 9.5 });
    // A limit order with no trigger typed is not one (the form refuses it before): it would go at the market.
    expect(orderRequest('stock', { ...order, direction: 'long', orderType: 'limit' }).key).toBe(
      'POST /user/buy.do',
    );
  });
});

describe('the price inquiry’s code', () => {
  it('is required, read upper-case, and 1 to 12 letters or digits', () => {
    expect(checkInquiryCode('  ')).toBe('required');
    expect(checkInquiryCode(' aapl ')).toBeNull();
    expect(inquiryCode(' aapl ')).toBe('AAPL');
    expect(checkInquiryCode('SH000300')).toBeNull();
    expect(checkInquiryCode('600 000')).toBe('invalid');
    expect(checkInquiryCode('ABCDEFGHIJKLM')).toBe('invalid');
  });
});

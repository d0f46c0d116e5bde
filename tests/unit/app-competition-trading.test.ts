import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../server/config';
import type { Competition, CompetitionAccount, MyCompetition } from '../../src/shared/api/competitions';
import type { Account } from '../../src/shared/api/types';
import {
  leverageWithinLimits,
  marketWithinLimits,
  shortWithinLimits,
  type TradeLimits,
  type TradingRules,
} from '../../src/shared/trading-rules';
import {
  competitionParam,
  limitsOf,
  payingCompetitionAccount,
  resolveChoice,
  tradableCompetitions,
} from '../../src/app/routes/trade/competition-trading';
import {
  checkLeverage,
  marketOffered,
  offeredLeverages,
  orderProblems,
  orderRequest,
  shortOffered,
} from '../../src/app/routes/trade/order/order-rules';

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

function competition(over: Partial<Competition> = {}): Competition {
  return {
    id: 7,
    name: 'Cup',
    description: '',
    startAt: 0,
    endAt: 1,
    state: 'running',
    startingCash: { CNY: 1_000_000, HKD: 0, USD: 100_000 },
    markets: ['a', 'us', 'index'],
    maxLeverage: 2,
    allowShort: false,
    visibility: 'public',
    joinCode: null,
    maxEntrants: null,
    entrants: 2,
    frozen: false,
    ...over,
  };
}

const mine = (c: Competition, joined = true): MyCompetition => ({
  competition: c,
  joined,
  isCreator: !joined,
  nickname: joined ? 'me' : null,
  rank: null,
  totalAssets: null,
  returnPct: null,
});

const limits: TradeLimits = limitsOf(competition());

describe('the competitions the switcher offers and what a choice resolves to', () => {
  const running = competition();
  const upcoming = competition({ id: 8, state: 'upcoming' });
  const ended = competition({ id: 9, state: 'ended' });
  const createdOnly = competition({ id: 10 });
  const list = [mine(running), mine(upcoming), mine(ended), mine(createdOnly, false)];

  it('offers only the running competitions the user entered', () => {
    expect(tradableCompetitions(list).map((c) => c.id)).toEqual([7]);
  });

  it('resolves the own account, a pending choice, a tradable competition and one that is not', () => {
    expect(resolveChoice(null, undefined)).toEqual({ kind: 'own' });
    expect(resolveChoice(7, undefined)).toEqual({ kind: 'pending' });
    expect(resolveChoice(7, list)).toEqual({ kind: 'competition', competition: running });
    for (const id of [8, 9, 10, 99]) {
      expect(resolveChoice(id, list)).toEqual({ kind: 'unavailable', competitionId: id });
    }
  });

  it('reads ?competition= as a positive id, else nothing', () => {
    expect(competitionParam({ competition: '12' })).toEqual({ competition: '12' });
    expect(competitionParam({ competition: 12 })).toEqual({ competition: '12' });
    for (const bad of ['0', '-3', '1.5', 'abc', '', '<script>', '1234567890123456']) {
      expect(competitionParam({ competition: bad })).toEqual({});
    }
    expect(competitionParam({})).toEqual({});
  });
});

describe('which competition account pays for an order', () => {
  const own = [
    { type: 'main', currency: 'CNY' },
    { type: 'index', currency: 'CNY' },
    { type: 'hk', currency: 'HKD' },
    { type: 'us', currency: 'USD' },
  ] as Pick<Account, 'type' | 'currency'>[];
  const accounts = (['CNY', 'HKD', 'USD'] as const).map(
    (currency, i) => ({ type: 'competition', currency, available: i }) as unknown as CompetitionAccount,
  );

  it("pays from the one in the currency of the user's own account trading the market", () => {
    const paying = (market: 'a' | 'index' | 'futures' | 'hk' | 'us') =>
      payingCompetitionAccount(accounts, own, rules.tradingAccount, market)?.currency;
    expect(paying('a')).toBe('CNY');
    expect(paying('index')).toBe('CNY');
    expect(paying('futures')).toBe('CNY');
    expect(paying('hk')).toBe('HKD');
    expect(paying('us')).toBe('USD');
  });
});

describe("the order form under a competition's limits (the rule book's, src/shared/trading-rules.ts)", () => {
  const aShare = { code: '600000', market: 'a' as const };
  const future = { code: 'IF0', market: 'futures' as const };

  it('applies no limit outside a competition', () => {
    expect(marketWithinLimits('hk', null)).toBe(true);
    expect(leverageWithinLimits(10, null)).toBe(true);
    expect(shortWithinLimits(null)).toBe(true);
    expect(offeredLeverages(rules, aShare)).toEqual(s.leverage.a);
  });

  it('offers no leverage above the largest, on top of the market list and a future’s margin rate', () => {
    expect(offeredLeverages(rules, aShare, limits)).toEqual([1, 2]);
    expect(offeredLeverages(rules, future, { ...limits, maxLeverage: 5 })).toEqual([1, 2, 3, 5]);
    expect(checkLeverage(2, rules, aShare, limits)).toBeNull();
    expect(checkLeverage(5, rules, aShare, limits)).toBe('notOffered');
    expect(checkLeverage(5, rules, aShare)).toBeNull();
  });

  it('offers a short only where the market and the competition both allow one', () => {
    expect(shortOffered(rules, 'index')).toBe(true);
    expect(shortOffered(rules, 'index', limits)).toBe(false);
    expect(shortOffered(rules, 'index', { ...limits, allowShort: true })).toBe(true);
    expect(shortOffered(rules, 'a', { ...limits, allowShort: true })).toBe(false);
  });

  it("offers only the competition's markets", () => {
    expect(marketOffered('a', limits)).toBe(true);
    expect(marketOffered('hk', limits)).toBe(false);
    expect(marketOffered('futures', limits)).toBe(false);
  });

  it('checks the leverage held against the limits, and sends the competitionId with the order', () => {
    const context = {
      instrument: { ...aShare, price: 10, limitUp: 11, limitDown: 9, lotSize: 100 },
      rules,
      limits,
    };
    const problems = orderProblems(
      { lots: '1', triggerPrice: '', stopProfit: '', stopLoss: '' },
      { direction: 'long', orderType: 'market', leverage: 3 },
      context,
    );
    expect(problems.leverage).toBe('notOffered');
    const order = {
      code: '600000',
      lots: 1,
      leverage: 2,
      trigger: null,
      stopProfit: null,
      stopLoss: null,
      direction: 'long' as const,
      orderType: 'market' as const,
    };
    expect(orderRequest('stock', { ...order, competitionId: 7 }).input).toMatchObject({ competitionId: 7 });
    expect(orderRequest('stock', order).input).not.toHaveProperty('competitionId');
    const limit = orderRequest('stock', { ...order, orderType: 'limit', trigger: 9.5, competitionId: 7 });
    expect(limit).toMatchObject({ key: 'POST /user/addOrder.do', input: { competitionId: 7 } });
  });
});

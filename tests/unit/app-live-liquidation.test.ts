import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../server/config';
import type { Position } from '../../src/shared/api/types';
import { liveLiquidationPrices } from '../../src/app/routes/trade/live-liquidation';

const base = {
  name: 'x',
  market: 'us',
  currency: 'USD',
  fxRate: 1,
  direction: 'long',
  lots: 100,
  shares: 100,
  leverage: 5,
  stopProfit: null,
  stopLoss: null,
  openedAt: 0,
  closedAt: null,
  closePrice: null,
  closeReason: null,
  sellableFrom: 0,
} as const;
const figures = {
  marketValue: 0,
  buyFee: 0,
  sellFee: 0,
  stampDuty: 0,
  deferredFee: 0,
  fees: 0,
  pricePnl: 0,
  pnl: 0,
  yield: 0,
  todayPnl: 0,
};
// A: 100 shares opened at $10 at 5× (margin $200, borrowed $800); B: 100 at $20 at 5× (margin $400, borrowed $1,600).
const a: Position = {
  ...base,
  ...figures,
  id: 1,
  code: 'A',
  openPrice: 10,
  currentPrice: 10,
  margin: 200,
  liquidationPrice: 1.23,
};
const b: Position = {
  ...base,
  ...figures,
  id: 2,
  code: 'B',
  openPrice: 20,
  currentPrice: 20,
  margin: 400,
  liquidationPrice: 4.56,
};
const accounts = [{ type: 'us', available: 100 }] as const;

describe('the liquidation price of open positions at live prices (one rule, src/shared/risk.ts)', () => {
  it("keeps the station's figures while no price of the account has moved", () => {
    const shown = liveLiquidationPrices(
      [a, b],
      accounts,
      DEFAULT_SETTINGS.tradingAccount,
      new Map([['A', 10]]),
      1.05,
    );
    expect([...shown]).toEqual([
      [1, 1.23],
      [2, 4.56],
    ]);
  });

  it("moves each position's price with the other's live price, account-wide", () => {
    const live = new Map([['B', 19]]);
    const shown = liveLiquidationPrices([a, b], accounts, DEFAULT_SETTINGS.tradingAccount, live, 1.05);
    // Borrowed $2,400; line × borrowed = $2,520. A: ($100 cash + B's $1,900 + 100p) reaches it at p = 5.20.
    expect(shown.get(1)).toBeCloseTo(5.2, 9);
    // B: ($100 cash + A's $1,000 + 100p) reaches it at p = 14.20.
    expect(shown.get(2)).toBeCloseTo(14.2, 9);
  });
});

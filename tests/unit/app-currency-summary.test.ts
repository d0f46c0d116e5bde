import { describe, expect, it } from 'vitest';
import type { Account } from '../../src/shared/api/types';
import { summaryByCurrency } from '../../src/app/routes/trade/currency-summary';

const account = (
  type: Account['type'],
  currency: Account['currency'],
  figures: Pick<Account, 'totalAssets' | 'todayPnl' | 'available'>,
): Account => ({
  type,
  currency,
  balance: figures.available,
  frozenMargin: 0,
  positionPnl: 0,
  liquidationLine: 1.05,
  warningLine: 1.1,
  riskRatio: null,
  borrowed: 0,
  longValue: 0,
  shortValue: 0,
  ...figures,
});

describe("the positions page's summary per currency", () => {
  it('adds up the yuan accounts and keeps each other currency apart, in CNY, HKD, USD order', () => {
    const summary = summaryByCurrency([
      account('us', 'USD', { totalAssets: 100_123.45, todayPnl: -12.3, available: 80_000.1 }),
      account('main', 'CNY', { totalAssets: 1_000_000.1, todayPnl: 0.2, available: 500_000.1 }),
      account('index', 'CNY', { totalAssets: 0.2, todayPnl: 0.1, available: 0.2 }),
      account('newstock', 'CNY', { totalAssets: 0, todayPnl: 0, available: 0 }),
    ]);
    expect(summary).toEqual([
      {
        currency: 'CNY',
        accounts: ['main', 'index', 'newstock'],
        // Summed in fen: 0.1 + 0.2 is 0.3, not 0.30000000000000004.
        totalAssets: 1_000_000.3,
        todayPnl: 0.3,
        available: 500_000.3,
      },
      { currency: 'USD', accounts: ['us'], totalAssets: 100_123.45, todayPnl: -12.3, available: 80_000.1 },
    ]);
  });

  it('shows only the currencies the user has accounts in', () => {
    expect(summaryByCurrency([])).toEqual([]);
  });
});

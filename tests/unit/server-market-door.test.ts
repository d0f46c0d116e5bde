/** The market area's door (server/market/index.ts) hands out the same things as the modules behind it. */
import { describe, expect, it } from 'vitest';
import * as door from '../../server/market';
import { loadCatalogue } from '../../server/market/catalogue';
import { FixedClock, systemClock } from '../../server/market/clock';
import { MarketService, QUOTE_SORTS } from '../../server/market/market-service';
import { roundToTick, tickFor } from '../../server/market/price-engine';
import { hashSeed } from '../../server/market/prng';
import { DAY_MS, sessionPosition } from '../../server/market/sessions';
import { DEFAULT_SETTINGS } from '../../server/config';

describe('the market door', () => {
  it('exports the very objects the deep imports give, so both paths keep working', () => {
    expect(door.MarketService).toBe(MarketService);
    expect(door.QUOTE_SORTS).toBe(QUOTE_SORTS);
    expect(door.FixedClock).toBe(FixedClock);
    expect(door.systemClock).toBe(systemClock);
    expect(door.loadCatalogue).toBe(loadCatalogue);
    expect(door.roundToTick).toBe(roundToTick);
    expect(door.tickFor).toBe(tickFor);
    expect(door.hashSeed).toBe(hashSeed);
    expect(door.DAY_MS).toBe(DAY_MS);
    expect(door.sessionPosition).toBe(sessionPosition);
  });

  it('builds a market that answers through every part: quotes, book, boards, news, rates and bars', () => {
    const market = new door.MarketService(
      door.loadCatalogue(),
      { seed: 'door', clockMode: 'always-open', settings: DEFAULT_SETTINGS },
      new door.FixedClock(Date.UTC(2025, 2, 12, 2)),
    );
    const stock = market.get('600519');
    expect(market.quote(stock).code).toBe('600519');
    expect(market.orderBook(stock).asks.length).toBeGreaterThan(0);
    expect(market.moveCounts('a').total).toBeGreaterThan(0);
    expect(market.indexNews({ code: 'HSI' }, 3)).toHaveLength(3);
    expect(market.exchangeRates().perUsd.USD).toBe(1);
    expect(market.dayBars(stock, 'week', 4)).toHaveLength(4);
    expect(market.findTradable('IF0')?.market).toBe('futures');
    // Building every part of the simulation takes seconds on a loaded 2-core machine.
  }, 30_000);
});

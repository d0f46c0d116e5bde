/** The market's warm-up: every instrument's history built ahead of requests, without holding the event loop. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../server/config';
import { loadCatalogue } from '../../server/market/catalogue';
import { FixedClock } from '../../server/market/clock';
import { MarketService } from '../../server/market/market-service';

const catalogue = loadCatalogue();
const NOW = Date.UTC(2026, 10, 25, 3);

describe('market warm-up', () => {
  // Building the whole catalogue's history takes about 2 s on a quiet machine and several times that on a
  // busy one: the limit is for a hang, not a speed target.
  it(
    'builds every instrument one per event-loop turn, so other work runs in between',
    { timeout: 60_000 },
    async () => {
      const market = new MarketService(
        catalogue,
        { seed: 'warm-up-test', clockMode: 'real', settings: DEFAULT_SETTINGS },
        new FixedClock(NOW),
      );
      let turns = 0;
      const ticker = setInterval(() => turns++, 0);
      const warmed = await market.warmUp();
      clearInterval(ticker);
      expect(warmed).toBe(market.instruments.length);
      // Timers ran while it worked: the warm-up yielded instead of running as one long task.
      expect(turns).toBeGreaterThan(10);
      // What it built is what requests read: the same bars as a market that builds them on demand.
      const cold = new MarketService(
        catalogue,
        { seed: 'warm-up-test', clockMode: 'real', settings: DEFAULT_SETTINGS },
        new FixedClock(NOW),
      );
      expect(market.dayBars(market.get('600519'), 'day', 30)).toEqual(
        cold.dayBars(cold.get('600519'), 'day', 30),
      );
    },
  );

  it('stops when asked (the station is shutting down)', async () => {
    const market = new MarketService(
      catalogue,
      { seed: 'warm-up-stop', clockMode: 'real', settings: DEFAULT_SETTINGS },
      new FixedClock(NOW),
    );
    let asked = 0;
    expect(await market.warmUp(() => ++asked > 3)).toBe(3);
  });
});

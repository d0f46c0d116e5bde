import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../server/config';
import { loadCatalogue } from '../../server/market/catalogue';
import { FixedClock } from '../../server/market/clock';
import { MarketService } from '../../server/market/market-service';
import { InstrumentSeries, priceLimits, tickFor, type SeriesSpec } from '../../server/market/price-engine';
import { DAY_MS, dayOfDate } from '../../server/market/sessions';

const catalogue = loadCatalogue();
const NOW = Date.UTC(2026, 10, 25, 3); // Wednesday 25 November 2026, 11:00 in Shanghai
const market = (seed = 'engine-test', t = NOW) =>
  new MarketService(catalogue, { seed, clockMode: 'real', settings: DEFAULT_SETTINGS }, new FixedClock(t));

const onTick = (price: number, tick: number) => Math.abs(price / tick - Math.round(price / tick)) < 1e-6;

function bareSpec(overrides: Partial<SeriesSpec> = {}): SeriesSpec {
  return {
    seed: 'engine-unit',
    instrument: {
      code: 'T1',
      tick: 0.01,
      referencePrice: 20,
      volatility: 0.4,
      avgDailyVolume: 5e6,
      lotSize: 100,
    },
    limit: null,
    anchorDay: dayOfDate('2020-01-01'),
    isTradingDay: () => true,
    minutesPerDay: 240,
    tradingDaysPerYear: 252,
    corporateLife: false,
    ...overrides,
  };
}

describe('the price engine over a simulated year of every instrument', () => {
  it('never breaks a limit or a tick, and keeps each bar consistent', () => {
    const m = market();
    const from = dayOfDate('2025-01-01');
    const to = dayOfDate('2025-12-31');
    const problems: string[] = [];
    const counts = { bars: 0, limitHits: 0, st: 0 };
    for (const instrument of catalogue) {
      const series = m.series(instrument);
      const limit = m.limitOf(instrument);
      // A new listing's trading days so far: its first five have no limit.
      let listedDays = instrument.listedOn && dayOfDate(instrument.listedOn) < from ? 5 : 0;
      for (let day = from; day <= to; day++) {
        const r = series.record(day);
        if (!r.trading || !r.listed) continue;
        listedDays++;
        if (r.suspended) continue;
        counts.bars++;
        const free = instrument.listedOn !== undefined && listedDays <= 5;
        const expected = free ? null : priceLimits(r.prevClose, limit, instrument.tick);
        if (JSON.stringify(expected) !== JSON.stringify(r.limits))
          problems.push(`${instrument.code} ${day} limits`);
        for (const p of [r.open, r.high, r.low, r.close]) {
          if (!onTick(p, tickFor(p, instrument.tick)))
            problems.push(`${instrument.code} ${day} ${p} off tick`);
          if (r.limits && (p > r.limits.up || p < r.limits.down))
            problems.push(`${instrument.code} ${day} ${p} beyond limit`);
        }
        if (r.limits && (r.close === r.limits.up || r.close === r.limits.down)) counts.limitHits++;
        if (instrument.st && r.limits) counts.st++;
        if (r.high < Math.max(r.open, r.close) || r.low > Math.min(r.open, r.close))
          problems.push(`${instrument.code} ${day} hl`);
        if (r.volume <= 0 || r.volume % instrument.lotSize !== 0)
          problems.push(`${instrument.code} ${day} volume`);
      }
    }
    expect(problems.slice(0, 10)).toEqual([]);
    expect(counts.bars).toBeGreaterThan(catalogue.length * 200);
    expect(counts.limitHits).toBeGreaterThan(0);
    expect(counts.st).toBeGreaterThan(0);
  }, 120_000);

  it('gives ST names ±10% (±5% until July 2025), the main boards ±10%, STAR and ChiNext ±20%, Hong Kong and US none', () => {
    const m = market();
    const limitUp = (code: string) => {
      const d = m.detail(m.get(code));
      return d.limitUp === null ? null : Math.round((d.limitUp / d.prevClose - 1) * 100);
    };
    const st = catalogue.find((i) => i.st)!;
    expect(limitUp(st.code)).toBe(10);
    expect(limitUp('600519')).toBe(10);
    expect(limitUp('688981')).toBe(20);
    expect(limitUp('300750')).toBe(20);
    expect(limitUp('00700')).toBeNull();
    expect(limitUp('AAPL')).toBeNull();
  });

  it('builds minute paths that open, peak, bottom and close with their day and sum to its volume', () => {
    const m = market();
    for (const code of ['600519', '00700', 'AAPL', '688981']) {
      const series = m.series(m.get(code));
      for (let day = dayOfDate('2026-11-16'); day <= dayOfDate('2026-11-24'); day++) {
        const r = series.record(day);
        if (!r.trading || r.suspended) continue;
        const path = series.path(day);
        const n = series.spec.minutesPerDay;
        expect([path.prices[0], path.runHigh[n], path.runLow[n], path.prices[n], path.runVolume[n]]).toEqual([
          r.open,
          r.high,
          r.low,
          r.close,
          r.volume,
        ]);
        for (const p of path.prices) expect(onTick(p, tickFor(p, m.get(code).tick))).toBe(true);
      }
    }
  });
});

describe('the engine is seeded and deterministic', () => {
  const fingerprint = (seed: string) => {
    const m = market(seed);
    const hash = createHash('sha256');
    for (const code of ['600519', '00700', 'AAPL', '688981', '300750', '300896']) {
      hash.update(JSON.stringify(m.dayBars(m.get(code), 'day', 800)));
      hash.update(JSON.stringify(m.minuteBars(m.get(code), '1')));
    }
    return hash.digest('hex');
  };

  it('gives the same bars byte for byte in a fresh process, and other bars for another seed', () => {
    const here = fingerprint('determinism');
    const script = `
      import { createHash } from 'node:crypto';
      import { DEFAULT_SETTINGS } from './server/config';
      import { loadCatalogue } from './server/market/catalogue';
      import { FixedClock } from './server/market/clock';
      import { MarketService } from './server/market/market-service';
      const m = new MarketService(loadCatalogue(), { seed: 'determinism', clockMode: 'real', settings: DEFAULT_SETTINGS }, new FixedClock(${NOW}));
      const hash = createHash('sha256');
      for (const code of ['600519', '00700', 'AAPL', '688981', '300750', '300896']) {
        hash.update(JSON.stringify(m.dayBars(m.get(code), 'day', 800)));
        hash.update(JSON.stringify(m.minuteBars(m.get(code), '1')));
      }
      console.log(hash.digest('hex'));`;
    const there = execFileSync('npx', ['tsx', '--input-type=module', '-e', script], {
      cwd: new URL('../..', import.meta.url).pathname,
      encoding: 'utf8',
    }).trim();
    expect(there).toBe(here);
    expect(fingerprint('another seed')).not.toBe(here);
  }, 60_000);
});

describe('volatility, intraday shape, jumps', () => {
  it('clusters volatility: large moves follow large moves (GARCH)', () => {
    const series = new InstrumentSeries(bareSpec());
    const anchor = series.spec.anchorDay;
    const r: number[] = [];
    for (let d = anchor + 1; d < anchor + 2500; d++)
      r.push(Math.log(series.close(d) / series.close(d - 1)) ** 2);
    const mean = r.reduce((s, x) => s + x, 0) / r.length;
    let num = 0;
    let den = 0;
    for (let i = 1; i < r.length; i++) num += (r[i]! - mean) * (r[i - 1]! - mean);
    for (const x of r) den += (x - mean) ** 2;
    expect(num / den).toBeGreaterThan(0.05);
    // The conditional volatility itself wanders: calm and stormy spells.
    const sigmas = Array.from({ length: 2000 }, (_, i) => series.record(anchor + i).sigma);
    expect(Math.max(...sigmas) / Math.min(...sigmas)).toBeGreaterThan(1.5);
  });

  it('trades more at the open and the close than at midday (U-shaped volume)', () => {
    const series = new InstrumentSeries(bareSpec());
    let edges = 0;
    let middle = 0;
    for (let d = series.spec.anchorDay + 10; d < series.spec.anchorDay + 70; d++) {
      const v = series.path(d).volumes;
      for (let k = 1; k <= 30; k++) edges += v[k]! + v[241 - k]!;
      for (let k = 106; k <= 135; k++) middle += 2 * v[k]!;
    }
    expect(edges).toBeGreaterThan(1.5 * middle);
  });

  it('has rare jumps: fat tails beyond four standard deviations', () => {
    const series = new InstrumentSeries(bareSpec());
    const anchor = series.spec.anchorDay;
    let tails = 0;
    for (let d = anchor + 1; d < anchor + 2500; d++) {
      const r = Math.log(series.close(d) / series.close(d - 1));
      if (Math.abs(r) > 4 * series.record(d).sigma) tails++;
    }
    // A normal distribution gives about 0.16 such days in 2,500.
    expect(tails).toBeGreaterThanOrEqual(3);
  });
});

describe('new listings and suspensions', () => {
  it('trades a new listing without limits for five days, then with them', () => {
    const anchor = dayOfDate('2020-01-01');
    const series = new InstrumentSeries(bareSpec({ limit: 0.1, listedDay: anchor + 30 }));
    expect(series.record(anchor + 29)).toMatchObject({ listed: false, volume: 0 });
    for (let d = anchor + 30; d < anchor + 35; d++)
      expect(series.record(d)).toMatchObject({ listed: true, limits: null });
    expect(series.record(anchor + 35).limits).not.toBeNull();
  });

  it('suspends some instruments now and then, flat and without volume, and marks the resumption', () => {
    const m = market();
    let suspended = 0;
    let resumed = 0;
    for (const instrument of catalogue.filter((i) => i.market === 'a')) {
      const series = m.series(instrument);
      for (let day = dayOfDate('2025-01-01'); day <= dayOfDate('2025-12-31'); day++) {
        const r = series.record(day);
        if (r.suspended) {
          suspended++;
          expect([r.open, r.high, r.low, r.close, r.volume]).toEqual([
            r.prevClose,
            r.prevClose,
            r.prevClose,
            r.prevClose,
            0,
          ]);
        }
        if (r.resumed) {
          resumed++;
          expect(series.record(day - 1).suspended || !series.record(day - 1).trading).toBe(true);
        }
      }
    }
    expect(suspended).toBeGreaterThan(10);
    expect(resumed).toBeGreaterThan(3);
  });
});

describe('dividends, splits and adjusted history', () => {
  it('has a few corporate actions a year and adjusts forward and backward consistently at each one', () => {
    const m = market();
    const instrument = m.get('600519');
    const series = m.series(instrument);
    const today = Math.floor(NOW / DAY_MS);
    const none = m.dayBars(instrument, 'day', 2000);
    const forward = m.dayBars(instrument, 'day', 2000, undefined, 'forward');
    const backward = m.dayBars(instrument, 'day', 2000, undefined, 'backward');
    expect(forward).toHaveLength(none.length);
    expect(backward).toHaveLength(none.length);
    const lastFactor = series.record(today).factor;
    expect(lastFactor).toBeGreaterThan(1);
    let actions = 0;
    for (let i = 0; i < none.length; i++) {
      const day = Math.floor((none[i]![0] + 12 * 3_600_000) / DAY_MS);
      const r = series.record(day);
      for (let j = 1; j <= 4; j++) {
        expect(backward[i]![j]! / none[i]![j]!).toBeCloseTo(r.factor, 3);
        expect(forward[i]![j]! / none[i]![j]!).toBeCloseTo(r.factor / lastFactor, 3);
        // Forward and backward differ by one constant: they invert each other.
        expect(backward[i]![j]! / forward[i]![j]!).toBeCloseTo(lastFactor, 2);
      }
      expect(forward[i]![5]).toBe(none[i]![5]);
      if (r.action && i > 0) {
        actions++;
        // On the ex-date the adjusted series changes only by the day's real move from the ex-rights price.
        const realMove = none[i]![4] / r.prevClose;
        expect(forward[i]![4] / forward[i - 1]![4]).toBeCloseTo(realMove, 3);
        expect(backward[i]![4] / backward[i - 1]![4]).toBeCloseTo(realMove, 3);
      }
    }
    expect(actions).toBeGreaterThanOrEqual(3);
    // Today's forward-adjusted prices are the real ones.
    expect(forward.at(-1)).toEqual(none.at(-1));
  });
});

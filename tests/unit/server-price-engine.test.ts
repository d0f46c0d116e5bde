import { describe, expect, it } from 'vitest';
import { TEST_STOCK } from '../fixtures/test-stock';
import type { Instrument } from '../../server/market/catalogue';
import { loadCatalogue } from '../../server/market/catalogue';
import {
  InstrumentSeries,
  buildDayPath,
  clampAndRound,
  priceLimits,
  roundToTick,
  tickFor,
  type SeriesSpec,
} from '../../server/market/price-engine';
import { hashSeed, mulberry32, normalFrom } from '../../server/market/prng';

const ANCHOR = 18_262; // 2020-01-01

const stock: Instrument = TEST_STOCK;

function spec(overrides: Partial<SeriesSpec> = {}): SeriesSpec {
  return {
    seed: 'unit',
    instrument: stock,
    limit: 0.1,
    anchorDay: ANCHOR,
    isTradingDay: () => true,
    minutesPerDay: 240,
    tradingDaysPerYear: 252,
    ...overrides,
  };
}

const isOnTick = (price: number, tick: number) => Math.abs(price / tick - Math.round(price / tick)) < 1e-6;

describe('seeded random numbers', () => {
  it('repeat for the same seed and differ for another', () => {
    const a = mulberry32(hashSeed('s', 1));
    const b = mulberry32(hashSeed('s', 1));
    const c = mulberry32(hashSeed('s', 2));
    const xs = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(xs);
    expect([c(), c(), c()]).not.toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('give standard normals', () => {
    const normal = normalFrom(mulberry32(7));
    const xs = Array.from({ length: 20_000 }, normal);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length;
    expect(Math.abs(mean)).toBeLessThan(0.03);
    expect(variance).toBeGreaterThan(0.95);
    expect(variance).toBeLessThan(1.05);
  });
});

describe('ticks and limits', () => {
  it('rounds half up to the tick', () => {
    expect(roundToTick(10.005, 0.01)).toBe(10.01);
    expect(roundToTick(10.0049, 0.01)).toBe(10);
    expect(roundToTick(0.001, 0.01)).toBe(0.01); // never below one tick
  });

  it('follows the HKEX spread table as revised in August 2025', () => {
    expect(tickFor(0.2, 'hkex')).toBe(0.001);
    expect(tickFor(0.3, 'hkex')).toBe(0.005);
    expect(tickFor(9.99, 'hkex')).toBe(0.01);
    // Over HK$10 to 20: 0.01 (0.02 before 4 August 2025); over HK$20 to 50: 0.02 (0.05 before).
    expect(tickFor(15, 'hkex')).toBe(0.01);
    expect(tickFor(20, 'hkex')).toBe(0.01);
    expect(tickFor(30, 'hkex')).toBe(0.02);
    expect(tickFor(42, 'hkex')).toBe(0.02);
    expect(tickFor(50, 'hkex')).toBe(0.02);
    expect(tickFor(50.05, 'hkex')).toBe(0.05);
    expect(tickFor(150, 'hkex')).toBe(0.1);
    expect(tickFor(620, 'hkex')).toBe(0.5);
    expect(roundToTick(620.3, 'hkex')).toBe(620.5);
    // 15.01 is a price now (15.00 + one 0.01 tick); 30.03 rounds half up to 30.04 (1,501.5 ticks of 0.02).
    expect(roundToTick(15.01, 'hkex')).toBe(15.01);
    expect(roundToTick(30.03, 'hkex')).toBe(30.04);
    expect(roundToTick(42.02, 'hkex')).toBe(42.02);
    expect(roundToTick(75.02, 'hkex')).toBe(75);
  });

  it('sets limit-up and limit-down from the previous close, rounded to the tick', () => {
    expect(priceLimits(37.47, 0.1, 0.01)).toEqual({ up: 41.22, down: 33.72 });
    expect(priceLimits(115.2, 0.2, 0.01)).toEqual({ up: 138.24, down: 92.16 });
    expect(priceLimits(620, null, 'hkex')).toBeNull();
    expect(clampAndRound(50, { up: 41.22, down: 33.72 }, 0.01)).toBe(41.22);
    expect(clampAndRound(1, { up: 41.22, down: 33.72 }, 0.01)).toBe(33.72);
  });
});

describe('the daily walk', () => {
  it('is deterministic: the same seed and instrument give the same closes', () => {
    const a = new InstrumentSeries(spec());
    const b = new InstrumentSeries(spec());
    const days = Array.from({ length: 300 }, (_, i) => ANCHOR + i);
    expect(days.map((d) => a.close(d))).toEqual(days.map((d) => b.close(d)));
    const other = new InstrumentSeries(spec({ seed: 'other' }));
    expect(days.map((d) => other.close(d))).not.toEqual(days.map((d) => a.close(d)));
    expect(a.record(ANCHOR + 5)).toEqual(new InstrumentSeries(spec()).record(ANCHOR + 5));
  });

  it('starts from the reference price and keeps each close within the limit of the previous one', () => {
    const wild: SeriesSpec = spec({ instrument: { ...stock, volatility: 3 } });
    const series = new InstrumentSeries(wild);
    expect(series.close(ANCHOR - 1)).toBe(20);
    let limited = 0;
    for (let d = ANCHOR; d < ANCHOR + 500; d++) {
      // The base is the previous close, or its ex-rights price on an ex-date.
      const prev = series.record(d).prevClose;
      if (!series.record(d).action) expect(prev).toBe(series.close(d - 1));
      const close = series.close(d);
      const limits = priceLimits(prev, 0.1, 0.01)!;
      expect(close).toBeLessThanOrEqual(limits.up);
      expect(close).toBeGreaterThanOrEqual(limits.down);
      expect(isOnTick(close, 0.01)).toBe(true);
      if (close === limits.up || close === limits.down) limited++;
    }
    // At 300% volatility the limits bind often: the clamp is doing the work.
    expect(limited).toBeGreaterThan(20);
  });

  it('repeats the last close on non-trading days', () => {
    const series = new InstrumentSeries(spec({ isTradingDay: (d) => d % 7 !== 3 }));
    const closed = ANCHOR + ((3 - (ANCHOR % 7) + 7) % 7);
    expect(series.close(closed)).toBe(series.close(closed - 1));
    expect(series.prevClose(closed + 1)).toBe(series.close(closed - 1));
  });
});

describe('the minute path of a day', () => {
  it('is a bridge from the open to the close, clamped to the limits and on the tick', () => {
    const s = spec({ instrument: { ...stock, volatility: 2 }, corporateLife: false });
    const series = new InstrumentSeries(s);
    for (let d = ANCHOR + 10; d < ANCHOR + 40; d++) {
      const path = series.path(d);
      const prev = series.prevClose(d);
      expect(path.prevClose).toBe(prev);
      expect(path.prices).toHaveLength(241);
      expect(path.prices[240]).toBe(series.close(d));
      expect(path.prices[0]).toBe(path.runHigh[0]);
      const problems: string[] = [];
      for (let k = 0; k <= 240; k++) {
        const p = path.prices[k]!;
        if (p > path.limits!.up || p < path.limits!.down) problems.push(`price ${k} ${p} outside the limits`);
        if (!isOnTick(p, 0.01)) problems.push(`price ${k} ${p} off the tick`);
      }
      for (let k = 1; k <= 240; k++) {
        const [a, b] = [path.prices[k - 1]!, path.prices[k]!];
        if (path.highs[k]! < Math.max(a, b) || path.highs[k]! > path.limits!.up) problems.push(`high ${k}`);
        if (path.lows[k]! > Math.min(a, b) || path.lows[k]! < path.limits!.down) problems.push(`low ${k}`);
        if (path.volumes[k]! % 100 !== 0) problems.push(`volume ${k} not in whole lots`);
        if (path.runVolume[k]! < path.runVolume[k - 1]!) problems.push(`running volume ${k} fell`);
      }
      expect(problems).toEqual([]);
      expect(series.daySummary(d)).toMatchObject({
        open: path.prices[0],
        close: path.prices[240],
        high: path.runHigh[240],
        low: path.runLow[240],
        volume: path.runVolume[240],
      });
    }
  });

  it('is the same every time it is built', () => {
    const record = new InstrumentSeries(spec({ corporateLife: false })).record(ANCHOR + 3);
    const a = buildDayPath(spec(), record);
    const b = buildDayPath(spec(), record);
    expect(Array.from(a.prices)).toEqual(Array.from(b.prices));
    expect(Array.from(a.volumes)).toEqual(Array.from(b.volumes));
  });

  it('uses the HKEX ticks for Hong Kong stocks', () => {
    const tencent = loadCatalogue().find((i) => i.code === '00700')!;
    const path = new InstrumentSeries(
      spec({ instrument: tencent, limit: null, minutesPerDay: 330, corporateLife: false }),
    ).path(ANCHOR + 1);
    expect(path.limits).toBeNull();
    for (const p of path.prices) expect(isOnTick(p, tickFor(p, 'hkex'))).toBe(true);
  });
});

describe('the catalogue', () => {
  it('lists the required instruments with real board lots', () => {
    const list = loadCatalogue();
    const count = (m: string) => list.filter((i) => i.market === m).length;
    expect(count('a')).toBeGreaterThanOrEqual(8);
    expect(count('star')).toBeGreaterThanOrEqual(4);
    expect(count('hk')).toBeGreaterThanOrEqual(6);
    expect(count('us')).toBeGreaterThanOrEqual(6);
    const lot = (code: string) => list.find((i) => i.code === code)?.lotSize;
    expect([lot('00700'), lot('09988'), lot('03690'), lot('01810'), lot('00005'), lot('02318')]).toEqual([
      100, 100, 100, 200, 400, 500,
    ]);
    expect(list.find((i) => i.code === '600519')).toMatchObject({
      name: '贵州茅台',
      nameEn: 'Kweichow Moutai',
      pinyin: 'GZMT',
    });
  });
});

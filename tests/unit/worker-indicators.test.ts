import { describe, expect, it } from 'vitest';
import {
  computeIndicators,
  DEFAULT_INDICATOR_SETTINGS,
  IndicatorEngine,
  type BarColumnsIn,
  type IndicatorLines,
} from '../../src/worker/indicator-engine';

/*
 * Each reference below is the textbook definition written out plainly, one value at a time, with no
 * shared code with the engine (DOMAIN.md "Indicators").
 */

interface Bars {
  time: number[];
  open: number[];
  high: number[];
  low: number[];
  close: number[];
  volume: number[];
}

const NaN_ = Number.NaN;

function refMa(values: number[], period: number): number[] {
  return values.map((_, i) => {
    if (i + 1 < period) return NaN_;
    const window = values.slice(i + 1 - period, i + 1);
    return window.reduce((a, b) => a + b, 0) / period;
  });
}

/** EMA(X,N): Y = (2X + (N−1)Y′)/(N+1), the first Y being the first X. */
function refEma(values: number[], period: number): number[] {
  const out: number[] = [];
  values.forEach((x, i) => out.push(i === 0 ? x : (2 * x + (period - 1) * out[i - 1]!) / (period + 1)));
  return out;
}

/** SMA(X,N,M): Y = (M·X + (N−M)·Y′)/N from the first defined X, starting from `seed` (or that X). */
function refSma(values: number[], n: number, m: number, seed?: number): number[] {
  const out: number[] = [];
  let previous: number | undefined = seed;
  for (const x of values) {
    if (Number.isNaN(x)) {
      out.push(NaN_);
      continue;
    }
    const y = previous === undefined ? x : (m * x + (n - m) * previous) / n;
    out.push(y);
    previous = y;
  }
  return out;
}

function refMacd(close: number[]) {
  const fast = refEma(close, 12);
  const slow = refEma(close, 26);
  const dif = close.map((_, i) => fast[i]! - slow[i]!);
  const dea = refEma(dif, 9);
  const bar = dif.map((d, i) => 2 * (d - dea[i]!));
  return { dif, dea, bar };
}

function refKdj(bars: Bars) {
  const rsv = bars.close.map((c, i) => {
    if (i < 8) return NaN_;
    const highs = bars.high.slice(i - 8, i + 1);
    const lows = bars.low.slice(i - 8, i + 1);
    const hh = Math.max(...highs);
    const ll = Math.min(...lows);
    return hh === ll ? 50 : ((c - ll) / (hh - ll)) * 100;
  });
  const k = refSma(rsv, 3, 1, 50);
  const d = refSma(k, 3, 1, 50);
  const j = k.map((kv, i) => 3 * kv - 2 * d[i]!);
  return { k, d, j };
}

function refRsi(close: number[], period: number): number[] {
  const changes = close.map((c, i) => (i === 0 ? NaN_ : c - close[i - 1]!));
  const ups = refSma(
    changes.map((x) => (Number.isNaN(x) ? NaN_ : Math.max(x, 0))),
    period,
    1,
  );
  const moves = refSma(
    changes.map((x) => Math.abs(x)),
    period,
    1,
  );
  return ups.map((u, i) => (Number.isNaN(u) ? NaN_ : moves[i] === 0 ? 50 : (u / moves[i]!) * 100));
}

function refBoll(close: number[], sample: boolean) {
  const mid = refMa(close, 20);
  const sd = close.map((_, i) => {
    if (i < 19) return NaN_;
    const window = close.slice(i - 19, i + 1);
    const mean = mid[i]!;
    const squares = window.map((x) => (x - mean) * (x - mean)).reduce((a, b) => a + b, 0);
    return Math.sqrt(squares / (sample ? 19 : 20));
  });
  return {
    mid,
    upper: mid.map((m, i) => m + 2 * sd[i]!),
    lower: mid.map((m, i) => m - 2 * sd[i]!),
  };
}

function refAverage(bars: Bars): number[] {
  let pv = 0;
  let v = 0;
  return bars.close.map((c, i) => {
    pv += c * bars.volume[i]!;
    v += bars.volume[i]!;
    return v > 0 ? pv / v : c;
  });
}

/* Series. A seeded generator, so a failure can be replayed. */

function lcg(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

function randomBars(n: number, seed = 7, start = 100): Bars {
  const next = lcg(seed);
  const bars: Bars = { time: [], open: [], high: [], low: [], close: [], volume: [] };
  let price = start;
  for (let i = 0; i < n; i++) {
    const open = price;
    price = Math.max(0.01, price * (1 + (next() - 0.5) * 0.06));
    const close = Math.round(price * 100) / 100;
    const high = Math.max(open, close) + Math.round(next() * 50) / 100;
    const low = Math.max(0.01, Math.min(open, close) - Math.round(next() * 50) / 100);
    bars.time.push(Date.UTC(2020, 0, 1) + i * 86_400_000);
    bars.open.push(open);
    bars.high.push(high);
    bars.low.push(low);
    bars.close.push(close);
    bars.volume.push(Math.round(next() * 100_000));
  }
  return bars;
}

function flatBars(n: number, price = 12.34): Bars {
  return {
    time: Array.from({ length: n }, (_, i) => i * 60_000),
    open: Array<number>(n).fill(price),
    high: Array<number>(n).fill(price),
    low: Array<number>(n).fill(price),
    close: Array<number>(n).fill(price),
    volume: Array<number>(n).fill(0),
  };
}

/** Price gaps of ±20–30 % between bars, holes in time (weekends, suspensions) and zero-volume bars. */
function gappedBars(n: number): Bars {
  const bars = randomBars(n, 99, 50);
  for (let i = 5; i < n; i += 7) {
    const factor = i % 2 === 0 ? 1.3 : 0.8;
    for (let j = i; j < n; j++) {
      bars.open[j] = bars.open[j]! * factor;
      bars.high[j] = bars.high[j]! * factor;
      bars.low[j] = bars.low[j]! * factor;
      bars.close[j] = bars.close[j]! * factor;
    }
    bars.time = bars.time.map((t, j) => (j >= i ? t + 3 * 86_400_000 : t));
    bars.volume[i] = 0;
  }
  return bars;
}

function columns(bars: Bars): BarColumnsIn {
  return {
    time: Float64Array.from(bars.time),
    open: Float64Array.from(bars.open),
    high: Float64Array.from(bars.high),
    low: Float64Array.from(bars.low),
    close: Float64Array.from(bars.close),
    volume: Float64Array.from(bars.volume),
  };
}

function expectAgrees(actual: Float64Array, expected: number[], what: string) {
  expect(actual.length, what).toBe(expected.length);
  expected.forEach((value, i) => {
    if (Number.isNaN(value)) expect(actual[i], `${what} at ${i} should have no value`).toBeNaN();
    else
      expect(Math.abs(actual[i]! - value), `${what} at ${i}: ${actual[i]} vs ${value}`).toBeLessThanOrEqual(
        1e-9,
      );
  });
}

function expectAllAgree(bars: Bars, lines: IndicatorLines, sample = false) {
  DEFAULT_INDICATOR_SETTINGS.maPeriods.forEach((p, k) =>
    expectAgrees(lines.ma[k]!, refMa(bars.close, p), `MA${p}`),
  );
  DEFAULT_INDICATOR_SETTINGS.emaPeriods.forEach((p, k) =>
    expectAgrees(lines.ema[k]!, refEma(bars.close, p), `EMA${p}`),
  );
  const macd = refMacd(bars.close);
  expectAgrees(lines.macdDif, macd.dif, 'DIF');
  expectAgrees(lines.macdDea, macd.dea, 'DEA');
  expectAgrees(lines.macdBar, macd.bar, 'MACD bar');
  const kdj = refKdj(bars);
  expectAgrees(lines.kdjK, kdj.k, 'K');
  expectAgrees(lines.kdjD, kdj.d, 'D');
  expectAgrees(lines.kdjJ, kdj.j, 'J');
  DEFAULT_INDICATOR_SETTINGS.rsiPeriods.forEach((p, k) =>
    expectAgrees(lines.rsi[k]!, refRsi(bars.close, p), `RSI${p}`),
  );
  const boll = refBoll(bars.close, sample);
  expectAgrees(lines.bollMid, boll.mid, 'BOLL mid');
  expectAgrees(lines.bollUpper, boll.upper, 'BOLL upper');
  expectAgrees(lines.bollLower, boll.lower, 'BOLL lower');
  DEFAULT_INDICATOR_SETTINGS.volMaPeriods.forEach((p, k) =>
    expectAgrees(lines.volMa[k]!, refMa(bars.volume, p), `VOL MA${p}`),
  );
  expectAgrees(lines.avgPrice, refAverage(bars), 'average price');
}

describe('indicators agree with plain reference definitions to 1e-9', () => {
  it.each([
    ['a random walk of 500 bars', randomBars(500)],
    ['a random walk of 3,000 large prices', randomBars(3000, 11, 25_000)],
    ['flat prices with no volume', flatBars(80)],
    ['price and time gaps with zero-volume bars', gappedBars(150)],
    ['fewer bars than every period (5)', randomBars(5, 3)],
    ['fewer bars than MA60 but more than BOLL20 (40)', randomBars(40, 5)],
    ['exactly one bar', randomBars(1, 13)],
    ['no bars', randomBars(0)],
  ])('on %s', (_name, bars) => {
    expectAllAgree(bars, computeIndicators(columns(bars)));
  });

  it('uses the sample standard deviation for BOLL when the flag is set', () => {
    const bars = randomBars(200, 21);
    const lines = computeIndicators(columns(bars), {
      ...DEFAULT_INDICATOR_SETTINGS,
      boll: { n: 20, width: 2, sample: true },
    });
    expectAllAgree(bars, lines, true);
  });

  it('gives MA, BOLL and KDJ no value before their window is full, and MACD and EMA from the first bar', () => {
    const lines = computeIndicators(columns(randomBars(25)));
    expect(lines.ma[0]![3]).toBeNaN();
    expect(lines.ma[0]![4]).not.toBeNaN();
    expect(lines.bollMid[18]).toBeNaN();
    expect(lines.bollMid[19]).not.toBeNaN();
    expect(lines.kdjK[7]).toBeNaN();
    expect(lines.kdjK[8]).not.toBeNaN();
    expect(lines.macdDif[0]).toBe(0);
    expect(lines.macdBar[0]).toBe(0);
    expect(lines.rsi[0]![0]).toBeNaN();
  });

  it('reads flat prices as neutral: KDJ and RSI at 50, BOLL bands on the price', () => {
    const lines = computeIndicators(columns(flatBars(40)));
    expect(lines.kdjK[39]).toBeCloseTo(50, 12);
    expect(lines.kdjJ[39]).toBeCloseTo(50, 12);
    expect(lines.rsi[0]![39]).toBe(50);
    expect(lines.bollUpper[39]).toBeCloseTo(12.34, 12);
    expect(lines.bollLower[39]).toBeCloseTo(12.34, 12);
    expect(lines.avgPrice[39]).toBe(12.34);
  });

  it('matches a hand-worked MACD bar on three bars', () => {
    const lines = computeIndicators(columns({ ...flatBars(3), close: [10, 11, 12] }));
    // EMA12 of 10, 11 = (22 + 110)/13; EMA26 = (22 + 250)/27; DEA = 2·DIF/10; bar = 2(DIF − DEA).
    const dif1 = (22 + 110) / 13 - (22 + 250) / 27;
    expect(lines.macdDif[1]).toBeCloseTo(dif1, 12);
    expect(lines.macdBar[1]).toBeCloseTo(2 * (dif1 - (2 * dif1) / 10), 12);
  });

  it('prefers the station’s intraday average price when a row carries one', () => {
    const bars = randomBars(10);
    const input = {
      ...columns(bars),
      avg: Float64Array.from(bars.close, (c, i) => (i === 4 ? NaN_ : c + 1)),
    };
    const lines = computeIndicators(input);
    expect(lines.avgPrice[3]).toBe(bars.close[3]! + 1);
    expect(lines.avgPrice[4]).toBeCloseTo(refAverage(bars)[4]!, 9);
  });

  it('refuses a period that is not a whole number of bars', () => {
    expect(() => new IndicatorEngine({ ...DEFAULT_INDICATOR_SETTINGS, maPeriods: [0] })).toThrow(RangeError);
    expect(() => new IndicatorEngine({ ...DEFAULT_INDICATOR_SETTINGS, rsiPeriods: [2.5] })).toThrow(
      RangeError,
    );
  });
});

/** Every line of two results, value for value (NaN equals NaN). */
function expectSameLines(actual: IndicatorLines, expected: IndicatorLines) {
  const flat = (lines: IndicatorLines) =>
    Object.entries(lines).flatMap(([name, value]: [string, Float64Array | Float64Array[]]) =>
      Array.isArray(value)
        ? value.map((v, k) => [`${name}[${k}]`, Array.from(v)] as const)
        : [[name, Array.from(value)] as const],
    );
  expect(flat(actual)).toEqual(flat(expected));
}

function barAt(bars: Bars, i: number) {
  return {
    time: bars.time[i]!,
    open: bars.open[i]!,
    high: bars.high[i]!,
    low: bars.low[i]!,
    close: bars.close[i]!,
    volume: bars.volume[i]!,
  };
}

function slice(bars: Bars, end: number): Bars {
  return {
    time: bars.time.slice(0, end),
    open: bars.open.slice(0, end),
    high: bars.high.slice(0, end),
    low: bars.low.slice(0, end),
    close: bars.close.slice(0, end),
    volume: bars.volume.slice(0, end),
  };
}

describe('appendBar and updateLastBar', () => {
  it('give exactly what a full recompute gives, bar after bar', () => {
    const bars = randomBars(300, 17);
    const engine = new IndicatorEngine();
    engine.load(columns(slice(bars, 100)));
    for (let i = 100; i < 300; i++) {
      engine.appendBar(barAt(bars, i));
      if (i % 37 === 0) expectSameLines(engine.result(), computeIndicators(columns(slice(bars, i + 1))));
    }
    expectSameLines(engine.result(), computeIndicators(columns(bars)));
  });

  it('recompute only the last bar through a run of live ticks, ending where a full recompute ends', () => {
    const bars = randomBars(120, 23);
    const engine = new IndicatorEngine();
    engine.load(columns(slice(bars, 119)));
    const last = barAt(bars, 119);
    // The new bar opens, moves through a few ticks with growing volume, then settles on its final values.
    engine.appendBar({ ...last, high: last.open, low: last.open, close: last.open, volume: 1 });
    for (const close of [last.low, last.high, (last.low + last.high) / 2]) {
      engine.updateLastBar({ ...last, close, volume: Math.round(last.volume / 2) });
      const ticked = { ...slice(bars, 120) };
      ticked.close = [...ticked.close.slice(0, 119), close];
      ticked.volume = [...ticked.volume.slice(0, 119), Math.round(last.volume / 2)];
      expectSameLines(engine.result(), computeIndicators(columns(ticked)));
    }
    engine.updateLastBar(last);
    expectSameLines(engine.result(), computeIndicators(columns(bars)));
  });

  it('build a whole history from nothing, one bar at a time', () => {
    const bars = gappedBars(90);
    const engine = new IndicatorEngine();
    engine.load(columns(randomBars(0)));
    for (let i = 0; i < 90; i++) {
      if (i === 0) engine.updateLastBar(barAt(bars, i));
      else engine.appendBar(barAt(bars, i));
    }
    expectSameLines(engine.result(), computeIndicators(columns(bars)));
  });

  it('grow past the first capacity without losing history', () => {
    const bars = randomBars(2000, 31);
    const engine = new IndicatorEngine();
    engine.load(columns(slice(bars, 10)));
    for (let i = 10; i < 2000; i++) engine.appendBar(barAt(bars, i));
    expectSameLines(engine.result(), computeIndicators(columns(bars)));
    expect(Array.from(engine.bars().close)).toEqual(bars.close);
  });
});

/**
 * The K-line indicators of DOMAIN.md "Indicators", computed bar by bar so a live bar can be appended or
 * the last one changed without recomputing the history.
 *
 * Every bar i is computed from the bar columns and a small recursive state left by bar i−1 (EMA values,
 * the MACD signal line, K and D, RSI smoothing, the intraday running sums). The engine keeps the state
 * after the second-last bar and after the last bar: `updateLastBar` recomputes only the last bar from the
 * former, `appendBar` moves the latter into the former and computes one new bar. A full computation is the
 * same step run over every bar, so incremental and full results agree exactly.
 *
 * Conventions (Chinese-market software, e.g. 通达信):
 * - MA(N), VOL MA(N), BOLL: a window of N bars; no value (NaN) for the first N−1 bars.
 * - EMA(X,N) = (2·X + (N−1)·EMA′)/(N+1), α = 2/(N+1), starting at the first X; so EMA, MACD and its
 *   DIF, DEA and bar = 2 × (DIF − DEA) have a value from the first bar.
 * - SMA(X,N,M) = (M·X + (N−M)·SMA′)/N, starting at the first X.
 * - KDJ(9,3,3): RSV = (C − LLV(L,9)) / (HHV(H,9) − LLV(L,9)) × 100 from the 9th bar, 50 when the window
 *   has no range; K = SMA(RSV,3,1), D = SMA(K,3,1), both starting from 50; J = 3K − 2D.
 * - RSI(N) = SMA(max(ΔC,0),N,1) / SMA(|ΔC|,N,1) × 100 from the second bar (the first change); 50 while
 *   the price has not moved at all.
 * - BOLL(20,2): middle MA(20), bands ± 2σ with the population σ (divide by N), or the sample σ (N−1) when
 *   `bollSample` is set.
 * - Intraday average price: the bar's own average when the station sends one, else Σ(close·volume)/Σvolume
 *   (the close while nothing has traded).
 */

export interface IndicatorSettings {
  maPeriods: readonly number[];
  emaPeriods: readonly number[];
  macd: { fast: number; slow: number; signal: number };
  kdj: { n: number; k: number; d: number };
  rsiPeriods: readonly number[];
  boll: { n: number; width: number; sample: boolean };
  volMaPeriods: readonly number[];
}

export const DEFAULT_INDICATOR_SETTINGS: IndicatorSettings = {
  maPeriods: [5, 10, 20, 30, 60],
  emaPeriods: [12, 26],
  macd: { fast: 12, slow: 26, signal: 9 },
  kdj: { n: 9, k: 3, d: 3 },
  rsiPeriods: [6, 12, 24],
  boll: { n: 20, width: 2, sample: false },
  volMaPeriods: [5, 10],
};

/** One bar's values; `avg` is the intraday average price when the station sends it. */
export interface BarValues {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  avg?: number;
}

/** Bar columns, oldest first. */
export interface BarColumnsIn {
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
  /** Intraday only: the station's running average price (NaN where absent). */
  avg?: Float64Array;
}

/** The indicator lines, one value per bar (NaN where there is none yet). */
export interface IndicatorLines {
  ma: Float64Array[];
  ema: Float64Array[];
  macdDif: Float64Array;
  macdDea: Float64Array;
  macdBar: Float64Array;
  kdjK: Float64Array;
  kdjD: Float64Array;
  kdjJ: Float64Array;
  rsi: Float64Array[];
  bollMid: Float64Array;
  bollUpper: Float64Array;
  bollLower: Float64Array;
  volMa: Float64Array[];
  avgPrice: Float64Array;
}

type Column = 'time' | 'open' | 'high' | 'low' | 'close' | 'volume' | 'avg';
const COLUMNS: readonly Column[] = ['time', 'open', 'high', 'low', 'close', 'volume', 'avg'];

function checkPeriod(name: string, period: number): void {
  if (!Number.isInteger(period) || period < 1) {
    throw new RangeError(`${name}: the period must be a whole number ≥ 1, got ${period}`);
  }
}

function grow(array: Float64Array, capacity: number, used: number): Float64Array {
  const next = new Float64Array(capacity).fill(Number.NaN);
  next.set(array.subarray(0, used));
  return next;
}

export class IndicatorEngine {
  readonly settings: IndicatorSettings;
  private n = 0;
  private capacity = 0;
  private columns: Record<Column, Float64Array>;
  private lines: IndicatorLines;
  /** Recursive state after the second-last bar (prev) and after the last bar (last). */
  private prev: Float64Array;
  private last: Float64Array;
  // Offsets into a state vector.
  private readonly sEma: number;
  private readonly sFast: number;
  private readonly sSlow: number;
  private readonly sDea: number;
  private readonly sK: number;
  private readonly sD: number;
  private readonly sRsiUp: number;
  private readonly sRsiAbs: number;
  private readonly sSumPv: number;
  private readonly sSumV: number;

  constructor(settings: IndicatorSettings = DEFAULT_INDICATOR_SETTINGS) {
    for (const p of settings.maPeriods) checkPeriod('MA', p);
    for (const p of settings.emaPeriods) checkPeriod('EMA', p);
    for (const p of settings.rsiPeriods) checkPeriod('RSI', p);
    for (const p of settings.volMaPeriods) checkPeriod('VOL MA', p);
    checkPeriod('MACD fast', settings.macd.fast);
    checkPeriod('MACD slow', settings.macd.slow);
    checkPeriod('MACD signal', settings.macd.signal);
    checkPeriod('KDJ', settings.kdj.n);
    checkPeriod('KDJ K', settings.kdj.k);
    checkPeriod('KDJ D', settings.kdj.d);
    checkPeriod('BOLL', settings.boll.n);
    this.settings = settings;
    let offset = 0;
    this.sEma = offset;
    offset += settings.emaPeriods.length;
    this.sFast = offset++;
    this.sSlow = offset++;
    this.sDea = offset++;
    this.sK = offset++;
    this.sD = offset++;
    this.sRsiUp = offset;
    offset += settings.rsiPeriods.length;
    this.sRsiAbs = offset;
    offset += settings.rsiPeriods.length;
    this.sSumPv = offset++;
    this.sSumV = offset++;
    this.prev = new Float64Array(offset).fill(Number.NaN);
    this.last = new Float64Array(offset).fill(Number.NaN);
    const empty = () => new Float64Array(0);
    this.columns = Object.fromEntries(COLUMNS.map((c) => [c, empty()])) as Record<Column, Float64Array>;
    this.lines = {
      ma: settings.maPeriods.map(empty),
      ema: settings.emaPeriods.map(empty),
      macdDif: empty(),
      macdDea: empty(),
      macdBar: empty(),
      kdjK: empty(),
      kdjD: empty(),
      kdjJ: empty(),
      rsi: settings.rsiPeriods.map(empty),
      bollMid: empty(),
      bollUpper: empty(),
      bollLower: empty(),
      volMa: settings.volMaPeriods.map(empty),
      avgPrice: empty(),
    };
  }

  get length(): number {
    return this.n;
  }

  /** Replaces the history with these bars and computes every indicator over it. */
  load(bars: BarColumnsIn): void {
    const n = bars.close.length;
    this.n = 0;
    this.capacity = 0;
    this.ensureCapacity(n);
    for (const c of COLUMNS) {
      const source = bars[c];
      if (source) this.columns[c].set(source.subarray(0, n));
      else this.columns[c].fill(Number.NaN);
    }
    this.n = n;
    this.prev.fill(Number.NaN);
    this.last.fill(Number.NaN);
    this.computeRange(0, n, new Float64Array(this.last.length).fill(Number.NaN));
  }

  /** Adds a new latest bar and computes its values from the state the previous bar left. */
  appendBar(bar: BarValues): void {
    this.ensureCapacity(this.n + 1);
    this.prev.set(this.last);
    this.n += 1;
    this.writeBar(this.n - 1, bar);
    this.computeRange(this.n - 1, this.n, this.prev);
  }

  /** Replaces the latest bar (a live tick) and recomputes only that bar. */
  updateLastBar(bar: BarValues): void {
    if (this.n === 0) {
      this.appendBar(bar);
      return;
    }
    this.writeBar(this.n - 1, bar);
    this.computeRange(this.n - 1, this.n, this.prev);
  }

  /** The bar columns, as views of the current length. */
  bars(): Required<BarColumnsIn> {
    const n = this.n;
    const v = (c: Column) => this.columns[c].subarray(0, n);
    return {
      time: v('time'),
      open: v('open'),
      high: v('high'),
      low: v('low'),
      close: v('close'),
      volume: v('volume'),
      avg: v('avg'),
    };
  }

  /** The indicator lines, as views of the current length (valid until the next change). */
  result(): IndicatorLines {
    const n = this.n;
    const v = (a: Float64Array) => a.subarray(0, n);
    const l = this.lines;
    return {
      ma: l.ma.map(v),
      ema: l.ema.map(v),
      macdDif: v(l.macdDif),
      macdDea: v(l.macdDea),
      macdBar: v(l.macdBar),
      kdjK: v(l.kdjK),
      kdjD: v(l.kdjD),
      kdjJ: v(l.kdjJ),
      rsi: l.rsi.map(v),
      bollMid: v(l.bollMid),
      bollUpper: v(l.bollUpper),
      bollLower: v(l.bollLower),
      volMa: l.volMa.map(v),
      avgPrice: v(l.avgPrice),
    };
  }

  private writeBar(i: number, bar: BarValues): void {
    const c = this.columns;
    c.time[i] = bar.time;
    c.open[i] = bar.open;
    c.high[i] = bar.high;
    c.low[i] = bar.low;
    c.close[i] = bar.close;
    c.volume[i] = bar.volume;
    c.avg[i] = bar.avg ?? Number.NaN;
  }

  private ensureCapacity(needed: number): void {
    if (needed <= this.capacity) return;
    const capacity = Math.max(64, needed, this.capacity * 2);
    const used = this.n;
    for (const c of COLUMNS) this.columns[c] = grow(this.columns[c], capacity, used);
    const l = this.lines;
    const g = (a: Float64Array) => grow(a, capacity, used);
    l.ma = l.ma.map(g);
    l.ema = l.ema.map(g);
    l.rsi = l.rsi.map(g);
    l.volMa = l.volMa.map(g);
    l.macdDif = g(l.macdDif);
    l.macdDea = g(l.macdDea);
    l.macdBar = g(l.macdBar);
    l.kdjK = g(l.kdjK);
    l.kdjD = g(l.kdjD);
    l.kdjJ = g(l.kdjJ);
    l.bollMid = g(l.bollMid);
    l.bollUpper = g(l.bollUpper);
    l.bollLower = g(l.bollLower);
    l.avgPrice = g(l.avgPrice);
    this.capacity = capacity;
  }

  /**
   * Computes bars from..to−1 given `before`, the state after bar from−1 (NaN-filled when from is 0).
   * Leaves the state after bar to−1 in `last` and, when bar to−2 is in the range, the state after it in
   * `prev`. One tight loop per indicator: the same arithmetic runs for a whole history and for one bar.
   */
  private computeRange(from: number, to: number, before: Float64Array): void {
    const { settings: s, lines: l, columns, prev, last } = this;
    const { close, high, low, volume, avg } = columns;
    const keep = to - 2;
    const NaN_ = Number.NaN;

    for (let k = 0; k < s.maPeriods.length; k++) movingMean(close, l.ma[k]!, s.maPeriods[k]!, from, to);
    for (let k = 0; k < s.volMaPeriods.length; k++)
      movingMean(volume, l.volMa[k]!, s.volMaPeriods[k]!, from, to);

    for (let k = 0; k < s.emaPeriods.length; k++) {
      const slot = this.sEma + k;
      const n = s.emaPeriods[k]!;
      const out = l.ema[k]!;
      let y = before[slot]!;
      for (let i = from; i < to; i++) {
        const x = close[i]!;
        y = i === 0 || y !== y ? x : (2 * x + (n - 1) * y) / (n + 1);
        out[i] = y;
        if (i === keep) prev[slot] = y;
      }
      last[slot] = y;
    }

    {
      const { fast: nf, slow: ns, signal: nd } = s.macd;
      let f = before[this.sFast]!;
      let w = before[this.sSlow]!;
      let e = before[this.sDea]!;
      const { macdDif, macdDea, macdBar } = l;
      for (let i = from; i < to; i++) {
        const x = close[i]!;
        const start = i === 0 || f !== f;
        f = start ? x : (2 * x + (nf - 1) * f) / (nf + 1);
        w = start ? x : (2 * x + (ns - 1) * w) / (ns + 1);
        const dif = f - w;
        e = start ? dif : (2 * dif + (nd - 1) * e) / (nd + 1);
        macdDif[i] = dif;
        macdDea[i] = e;
        macdBar[i] = 2 * (dif - e);
        if (i === keep) {
          prev[this.sFast] = f;
          prev[this.sSlow] = w;
          prev[this.sDea] = e;
        }
      }
      last[this.sFast] = f;
      last[this.sSlow] = w;
      last[this.sDea] = e;
    }

    {
      const { n: kn, k: mk, d: md } = s.kdj;
      let kv = before[this.sK]!;
      let dv = before[this.sD]!;
      const { kdjK, kdjD, kdjJ } = l;
      for (let i = from; i < to; i++) {
        if (i + 1 < kn) {
          kv = NaN_;
          dv = NaN_;
          kdjK[i] = NaN_;
          kdjD[i] = NaN_;
          kdjJ[i] = NaN_;
        } else {
          let hh = high[i]!;
          let ll = low[i]!;
          for (let j = i - kn + 1; j < i; j++) {
            if (high[j]! > hh) hh = high[j]!;
            if (low[j]! < ll) ll = low[j]!;
          }
          const rsv = hh === ll ? 50 : ((close[i]! - ll) / (hh - ll)) * 100;
          kv = (rsv + (mk - 1) * (kv !== kv ? 50 : kv)) / mk;
          dv = (kv + (md - 1) * (dv !== dv ? 50 : dv)) / md;
          kdjK[i] = kv;
          kdjD[i] = dv;
          kdjJ[i] = 3 * kv - 2 * dv;
        }
        if (i === keep) {
          prev[this.sK] = kv;
          prev[this.sD] = dv;
        }
      }
      last[this.sK] = kv;
      last[this.sD] = dv;
    }

    for (let k = 0; k < s.rsiPeriods.length; k++) {
      const n = s.rsiPeriods[k]!;
      const upSlot = this.sRsiUp + k;
      const absSlot = this.sRsiAbs + k;
      const out = l.rsi[k]!;
      let upAvg = before[upSlot]!;
      let absAvg = before[absSlot]!;
      for (let i = from; i < to; i++) {
        if (i === 0) {
          upAvg = NaN_;
          absAvg = NaN_;
          out[i] = NaN_;
        } else {
          const change = close[i]! - close[i - 1]!;
          const up = change > 0 ? change : 0;
          const abs = change < 0 ? -change : change;
          upAvg = upAvg !== upAvg ? up : (up + (n - 1) * upAvg) / n;
          absAvg = absAvg !== absAvg ? abs : (abs + (n - 1) * absAvg) / n;
          out[i] = absAvg === 0 ? 50 : (upAvg / absAvg) * 100;
        }
        if (i === keep) {
          prev[upSlot] = upAvg;
          prev[absSlot] = absAvg;
        }
      }
      last[upSlot] = upAvg;
      last[absSlot] = absAvg;
    }

    {
      const { n: bn, width, sample } = s.boll;
      const divisor = sample ? bn - 1 : bn;
      const { bollMid, bollUpper, bollLower } = l;
      for (let i = from; i < to; i++) {
        if (i + 1 < bn) {
          bollMid[i] = NaN_;
          bollUpper[i] = NaN_;
          bollLower[i] = NaN_;
          continue;
        }
        let sum = 0;
        for (let j = i - bn + 1; j <= i; j++) sum += close[j]!;
        const mid = sum / bn;
        let squares = 0;
        for (let j = i - bn + 1; j <= i; j++) {
          const dev = close[j]! - mid;
          squares += dev * dev;
        }
        const sigma = divisor > 0 ? Math.sqrt(squares / divisor) : 0;
        bollMid[i] = mid;
        bollUpper[i] = mid + width * sigma;
        bollLower[i] = mid - width * sigma;
      }
    }

    {
      let sumPv = from === 0 ? 0 : before[this.sSumPv]!;
      let sumV = from === 0 ? 0 : before[this.sSumV]!;
      const out = l.avgPrice;
      for (let i = from; i < to; i++) {
        const c = close[i]!;
        const v = volume[i]!;
        sumPv += c * v;
        sumV += v;
        const given = avg[i]!;
        out[i] = given === given ? given : sumV > 0 ? sumPv / sumV : c;
        if (i === keep) {
          prev[this.sSumPv] = sumPv;
          prev[this.sSumV] = sumV;
        }
      }
      last[this.sSumPv] = sumPv;
      last[this.sSumV] = sumV;
    }
  }
}

/** MA(N) of bars from..to−1: the mean of each window of N values, summed oldest first; NaN before. */
function movingMean(values: Float64Array, out: Float64Array, period: number, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    if (i + 1 < period) {
      out[i] = Number.NaN;
      continue;
    }
    let sum = 0;
    for (let j = i - period + 1; j <= i; j++) sum += values[j]!;
    out[i] = sum / period;
  }
}

/** Every indicator over a whole history in one go (a fresh engine). */
export function computeIndicators(
  bars: BarColumnsIn,
  settings: IndicatorSettings = DEFAULT_INDICATOR_SETTINGS,
): IndicatorLines {
  const engine = new IndicatorEngine(settings);
  engine.load(bars);
  return engine.result();
}

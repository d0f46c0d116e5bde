import { describe, expect, it } from 'vitest';
import { shapeKline } from '../../src/worker/kline-shape';
import type { BarColumns } from '../../src/worker/kline-types';

/** Bars as columns, from rows [time, open, high, low, close, volume]. */
function columns(rows: [number, number, number, number, number, number][]): BarColumns {
  const col = (i: number) => Float64Array.from(rows.map((row) => row[i]!));
  return { time: col(0), open: col(1), high: col(2), low: col(3), close: col(4), volume: col(5) };
}

// Midnight in Shanghai on 2025-03-03, 03-04 and 03-05 (UTC+8).
const day = (d: number) => Date.UTC(2025, 2, d, -8);

describe('shapeKline', () => {
  const bars = columns([
    [day(3), 10, 11, 9.5, 10.5, 1000],
    [day(4), 10.5, 10.8, 9.9, 10, 1500],
    [day(5), 10, 10.6, 10, 10.6, 900],
  ]);

  it('orders candles as echarts wants them: open, close, low, high', () => {
    const series = shapeKline({ bars, maPeriods: [], timeZone: 'Asia/Shanghai' });
    expect(series.candles).toEqual([
      [10, 10.5, 9.5, 11],
      [10.5, 10, 9.9, 10.8],
      [10, 10.6, 10, 10.6],
    ]);
  });

  it('labels each bar with its trading day in the market’s time zone', () => {
    const series = shapeKline({ bars, maPeriods: [], timeZone: 'Asia/Shanghai' });
    expect(series.dates).toEqual(['2025-03-03', '2025-03-04', '2025-03-05']);
  });

  it('splits volume by the bar’s direction, leaving gaps for the other colour', () => {
    const series = shapeKline({ bars, maPeriods: [], timeZone: 'Asia/Shanghai' });
    expect(series.volumeUp).toEqual([1000, null, 900]);
    expect(series.volumeDown).toEqual([null, 1500, null]);
  });

  it('gives MA lines with gaps (null) before enough bars, and the latest value', () => {
    const series = shapeKline({ bars, maPeriods: [2, 5], timeZone: 'Asia/Shanghai' });
    const [ma2, ma5] = series.ma;
    expect(ma2!.period).toBe(2);
    expect(ma2!.values[0]).toBeNull();
    expect(ma2!.values[1]).toBeCloseTo(10.25, 12);
    expect(ma2!.values[2]).toBeCloseTo(10.3, 12);
    expect(ma2!.last).toBeCloseTo(10.3, 12);
    expect(ma5!.values).toEqual([null, null, null]);
    expect(ma5!.last).toBeNull();
  });

  it('shapes no bars into empty series', () => {
    const series = shapeKline({ bars: columns([]), maPeriods: [5] });
    expect(series).toEqual({
      dates: [],
      candles: [],
      volumeUp: [],
      volumeDown: [],
      ma: [{ period: 5, values: [], last: null }],
    });
  });
});

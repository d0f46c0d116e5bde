import { describe, expect, it } from 'vitest';
import { KlineSession, makeLabeller } from '../../src/worker/kline-shape';
import type { BarColumns, KlineSeries, OpenSeriesRequest } from '../../src/worker/kline-types';

const COLORS = { up: '#up', down: '#down' };

function columns(rows: number[][]): BarColumns {
  const col = (k: number) => Float64Array.from(rows, (r) => r[k]!);
  return { time: col(0), open: col(1), high: col(2), low: col(3), close: col(4), volume: col(5) };
}

/** 2025-03-10 … one bar a day at 07:00 UTC (15:00 in Shanghai). */
function dayRows(n: number): number[][] {
  const rows: number[][] = [];
  let price = 20;
  for (let i = 0; i < n; i++) {
    const open = price;
    price = Math.round((price + Math.sin(i) * 0.8) * 100) / 100;
    rows.push([
      Date.UTC(2025, 2, 10 + i, 7),
      open,
      Math.max(open, price) + 0.1,
      Math.min(open, price) - 0.1,
      price,
      1000 + i,
    ]);
  }
  return rows;
}

function request(rows: number[][], overrides: Partial<OpenSeriesRequest> = {}): OpenSeriesRequest {
  return {
    bars: columns(rows),
    mode: 'kline',
    labelStyle: 'date',
    timeZone: 'Asia/Shanghai',
    colors: COLORS,
    ...overrides,
  };
}

describe('KlineSession', () => {
  it('shapes candles in echarts order, dated labels and volume coloured by the convention passed in', () => {
    const rows = [
      [Date.UTC(2025, 2, 11, 17), 10, 11, 9.5, 10.5, 100],
      [Date.UTC(2025, 2, 12, 7), 10.5, 10.6, 9.8, 10, 200],
      [Date.UTC(2025, 2, 13, 7), 10, 10.2, 9.9, 10, 300],
    ];
    const series = new KlineSession(request(rows)).series();
    expect(series.labels).toEqual(['2025-03-12', '2025-03-12', '2025-03-13']);
    expect(series.candles[0]).toEqual([10, 10.5, 9.5, 11]);
    expect(series.volume).toEqual([100, 200, 300]);
    // Closing at the open counts as up.
    expect(series.volumeColors).toEqual(['#up', '#down', '#up']);
    const greenUp = new KlineSession(request(rows, { colors: { up: 'green', down: 'red' } })).series();
    expect(greenUp.volumeColors).toEqual(['green', 'red', 'green']);
    expect(series.lines.ma5).toEqual([null, null, null]);
  });

  it('colours an intraday minute against the minute before and draws price and average lines', () => {
    const rows = [
      [Date.UTC(2025, 2, 12, 1, 30), 10, 10, 10, 10, 100],
      [Date.UTC(2025, 2, 12, 1, 31), 10, 10.2, 10, 10.2, 100],
      [Date.UTC(2025, 2, 12, 1, 32), 10.3, 10.3, 10.1, 10.1, 200],
    ];
    const series = new KlineSession(request(rows, { mode: 'intraday', labelStyle: 'time' })).series();
    expect(series.labels).toEqual(['09:30', '09:31', '09:32']);
    expect(series.lines.price).toEqual([10, 10.2, 10.1]);
    expect(series.volumeColors).toEqual(['#up', '#up', '#down']);
    expect(series.lines.avg![2]).toBeCloseTo((1000 + 1020 + 2020) / 400, 12);
  });

  it('labels minute bars with date and time in the market’s zone', () => {
    expect(makeLabeller('minute', 'America/New_York')(Date.UTC(2025, 2, 12, 14, 35))).toBe('03-12 10:35');
  });

  it('patches from appendBar and updateLastBar equal the series of a fresh session over the same bars', () => {
    const rows = dayRows(90);
    const live = new KlineSession(request(rows.slice(0, 80)));
    const drawn: KlineSeries = live.series();
    const apply = (patch: ReturnType<KlineSession['appendBar']>) => {
      if (patch.appended) expect(patch.index).toBe(drawn.labels.length);
      drawn.labels[patch.index] = patch.label;
      drawn.candles[patch.index] = patch.candle;
      drawn.volume[patch.index] = patch.volume;
      drawn.volumeColors[patch.index] = patch.volumeColor;
      for (const [key, value] of Object.entries(patch.lines)) drawn.lines[key]![patch.index] = value;
    };
    for (let i = 80; i < 90; i++) {
      const [time, open, high, low, close, volume] = rows[i]!;
      apply(live.appendBar({ time: time!, open: open!, high: open!, low: open!, close: open!, volume: 1 }));
      apply(
        live.updateLastBar({
          time: time!,
          open: open!,
          high: high!,
          low: low!,
          close: close!,
          volume: volume!,
        }),
      );
    }
    expect(drawn).toEqual(new KlineSession(request(rows)).series());
  });

  it('uses the sample standard deviation for BOLL when asked', () => {
    const rows = dayRows(30);
    const population = new KlineSession(request(rows)).series().lines.bollUpper![29]!;
    const sample = new KlineSession(request(rows, { bollSample: true })).series().lines.bollUpper![29]!;
    expect(sample).toBeGreaterThan(population);
  });
});

describe('makeLabeller', () => {
  it('agrees with Intl for every hour across both daylight-saving changes of a year', () => {
    const label = makeLabeller('minute', 'America/New_York');
    const intl = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'America/New_York',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    for (let ms = Date.UTC(2025, 0, 1, 0, 17); ms < Date.UTC(2026, 0, 1); ms += 3_600_000) {
      const p = Object.fromEntries(intl.formatToParts(ms).map((x) => [x.type, x.value]));
      expect(label(ms)).toBe(`${p.month}-${p.day} ${p.hour}:${p.minute}`);
    }
  });
});

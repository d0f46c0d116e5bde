import { describe, expect, it } from 'vitest';
import { buildKlineOption, initialZoom, VISIBLE_BARS } from '../../src/worker/kline-option';
import { KlineSession } from '../../src/worker/kline-shape';
import type { ChartPalette, KlineSeries } from '../../src/worker/kline-types';

const PALETTE: ChartPalette = {
  up: '#up',
  down: '#down',
  flat: '#flat',
  text2: '#t2',
  border: '#b',
  accent: '#acc',
  lines: ['#l0', '#l1', '#l2', '#l3', '#l4'],
};

function series(n: number, mode: 'kline' | 'intraday' = 'kline'): KlineSeries {
  const col = (f: (i: number) => number) => Float64Array.from({ length: n }, (_, i) => f(i));
  return new KlineSession({
    bars: {
      time: col((i) => Date.UTC(2025, 0, 1) + i * 86_400_000),
      open: col((i) => 10 + Math.sin(i)),
      high: col((i) => 11 + Math.sin(i)),
      low: col((i) => 9 + Math.sin(i)),
      close: col((i) => 10 + Math.cos(i)),
      volume: col((i) => 100 + i),
    },
    mode,
    labelStyle: 'date',
    timeZone: 'UTC',
    colors: { up: PALETTE.up, down: PALETTE.down },
  }).series();
}

type SeriesOption = {
  id: string;
  type: string;
  xAxisIndex: number;
  data: unknown[];
  itemStyle?: { color?: unknown };
};
const seriesOf = (option: ReturnType<typeof buildKlineOption>) => option.series as SeriesOption[];

describe('buildKlineOption', () => {
  it('draws candles with the chosen overlay above and the chosen sub-chart below', () => {
    const option = buildKlineOption(series(100), { overlay: 'boll', sub: 'kdj' }, PALETTE);
    const ids = seriesOf(option).map((s) => `${s.id}@${s.xAxisIndex}`);
    expect(ids).toEqual([
      'candles@0',
      'line-bollMid@0',
      'line-bollUpper@0',
      'line-bollLower@0',
      'line-k@1',
      'line-d@1',
      'line-j@1',
    ]);
  });

  it('colours volume bars from the worker’s up/down colours and MACD bars by their sign', () => {
    const drawn = series(100);
    const vol = seriesOf(buildKlineOption(drawn, { overlay: 'ma', sub: 'vol' }, PALETTE)).find(
      (s) => s.id === 'volume',
    )!;
    const colour = vol.itemStyle!.color as (p: { dataIndex: number }) => string;
    drawn.volumeColors.forEach((expected, i) => expect(colour({ dataIndex: i })).toBe(expected));

    const macd = seriesOf(buildKlineOption(drawn, { overlay: 'ma', sub: 'macd' }, PALETTE)).find(
      (s) => s.id === 'macd',
    )!;
    const macdColour = macd.itemStyle!.color as (p: { dataIndex: number }) => string;
    drawn.lines.macd!.forEach((value, i) =>
      expect(macdColour({ dataIndex: i })).toBe((value ?? 0) >= 0 ? PALETTE.up : PALETTE.down),
    );
  });

  it('draws the intraday view as price and average lines over volume, whatever the indicator choice', () => {
    const option = buildKlineOption(series(50, 'intraday'), { overlay: 'boll', sub: 'rsi' }, PALETTE);
    expect(seriesOf(option).map((s) => s.id)).toEqual(['line-price', 'line-avg', 'volume']);
  });

  it('opens on the latest bars of a K-line and on the whole session intraday; keeps the user’s zoom otherwise', () => {
    expect(initialZoom(600)).toEqual({ start: 100 - (VISIBLE_BARS / 600) * 100, end: 100 });
    expect(initialZoom(30)).toEqual({ start: 0, end: 100 });
    expect(initialZoom(240, 'intraday')).toEqual({ start: 0, end: 100 });
    expect(buildKlineOption(series(10), { overlay: 'ma', sub: 'vol' }, PALETTE)).not.toHaveProperty(
      'dataZoom',
    );
  });
});

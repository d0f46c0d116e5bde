import { describe, expect, it } from 'vitest';
import { buildEquityOption, equitySummary, type EquityRequest } from '../../src/worker/equity-option';
import type { ChartPalette } from '../../src/worker/kline-types';

const PALETTE: ChartPalette = {
  up: '#up',
  down: '#down',
  flat: '#flat',
  text2: '#t2',
  border: '#b',
  accent: '#acc',
  lines: ['#l0'],
};

function curve(values: number[], base = 100): EquityRequest {
  return {
    days: values.map((_, i) => `2025-03-${String(10 + i).padStart(2, '0')}`),
    totalAssets: Float64Array.from(values),
    returnPct: Float64Array.from(values, (v) => v / base - 1),
  };
}

describe('the equity curve in the chart worker', () => {
  it('sums up the last figure, the highest, the lowest and the deepest fall from a high', () => {
    expect(equitySummary(curve([100, 120, 90, 110, 80, 95]))).toEqual({
      count: 6,
      firstDay: '2025-03-10',
      lastDay: '2025-03-15',
      last: 95,
      lastReturn: 95 / 100 - 1,
      high: 120,
      low: 80,
      maxDrawdown: 0.333333,
    });
    expect(equitySummary(curve([100, 101, 102])).maxDrawdown).toBe(0);
  });

  it('has nothing to sum up without points', () => {
    expect(equitySummary(curve([]))).toMatchObject({ count: 0, last: null, high: null, maxDrawdown: 0 });
  });

  it("draws one line of total assets per day, scaled to the curve's own range, in the theme's accent", () => {
    const option = buildEquityOption(curve([100, 120, 90]), PALETTE);
    expect(option.xAxis).toMatchObject({ type: 'category', data: ['03-10', '03-11', '03-12'] });
    expect(option.yAxis).toMatchObject({ type: 'value', scale: true });
    const [series] = option.series as { type: string; data: number[]; lineStyle: { color: string } }[];
    expect(series).toMatchObject({ type: 'line', data: [100, 120, 90], lineStyle: { color: '#acc' } });
  });
});

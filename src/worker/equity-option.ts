/**
 * A competition entrant's daily equity curve (GET /user/competition/equity.do), shaped and summed up in the
 * chart worker: the echarts option of a line of total assets per day, and the figures the page's text
 * summary reads out (the last figure and return, the highest and lowest, the deepest fall from a high).
 * Pure: no echarts instance, so it is tested as plain data.
 */
import type { ComposeOption } from 'echarts/core';
import type { LineSeriesOption } from 'echarts/charts';
import type { GridComponentOption, TooltipComponentOption } from 'echarts/components';
import type { ChartPalette } from './kline-types';

/** The curve as it crosses to the worker: one value per day, oldest first (the numbers transferred). */
export interface EquityRequest {
  /** Shanghai calendar days, YYYY-MM-DD. */
  days: string[];
  /** Total assets in yuan per day. */
  totalAssets: Float64Array;
  /** Return on the starting cash per day, a fraction. */
  returnPct: Float64Array;
}

/** What the page's summary and table need of the curve, worked out here (the page does no chart maths). */
export interface EquitySummary {
  count: number;
  firstDay: string | null;
  lastDay: string | null;
  /** The last day's total assets and return. */
  last: number | null;
  lastReturn: number | null;
  high: number | null;
  low: number | null;
  /** The deepest fall from a running high to a later low, a fraction (0 when it never fell). */
  maxDrawdown: number;
}

export type EquityOption = ComposeOption<LineSeriesOption | GridComponentOption | TooltipComponentOption>;

export function equitySummary(request: EquityRequest): EquitySummary {
  const values = request.totalAssets;
  const count = values.length;
  if (count === 0) {
    return {
      count,
      firstDay: null,
      lastDay: null,
      last: null,
      lastReturn: null,
      high: null,
      low: null,
      maxDrawdown: 0,
    };
  }
  let high = values[0]!;
  let low = values[0]!;
  let peak = values[0]!;
  let maxDrawdown = 0;
  for (const value of values) {
    high = Math.max(high, value);
    low = Math.min(low, value);
    peak = Math.max(peak, value);
    if (peak > 0) maxDrawdown = Math.max(maxDrawdown, (peak - value) / peak);
  }
  return {
    count,
    firstDay: request.days[0] ?? null,
    lastDay: request.days[count - 1] ?? null,
    last: values[count - 1]!,
    lastReturn: request.returnPct[count - 1] ?? null,
    high,
    low,
    maxDrawdown: Number(maxDrawdown.toFixed(6)),
  };
}

/**
 * The curve's option: days along the axis (MM-DD), total assets up the side scaled to the curve's own range
 * (not from zero: the moves of a competition are small beside its cash), the line in the theme's accent, and
 * a dot on each day when there are few.
 */
export function buildEquityOption(request: EquityRequest, palette: ChartPalette): EquityOption {
  const axisLabel = { color: palette.text2, fontSize: 10 };
  return {
    animation: false,
    grid: { left: 8, right: 12, top: 12, bottom: 8, containLabel: true },
    tooltip: { show: false },
    xAxis: {
      type: 'category',
      boundaryGap: false,
      data: request.days.map((day) => day.slice(5)),
      axisLine: { lineStyle: { color: palette.border } },
      axisLabel,
    },
    yAxis: {
      type: 'value',
      scale: true,
      axisLabel,
      splitLine: { lineStyle: { color: palette.border, opacity: 0.6 } },
    },
    series: [
      {
        id: 'equity',
        type: 'line',
        data: Array.from(request.totalAssets),
        showSymbol: request.days.length <= 31,
        symbolSize: 5,
        lineStyle: { color: palette.accent, width: 2 },
        itemStyle: { color: palette.accent },
        areaStyle: { color: palette.accent, opacity: 0.12 },
      },
    ],
  };
}

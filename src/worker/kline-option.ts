import type { ComposeOption } from 'echarts/core';
import type { BarSeriesOption, CandlestickSeriesOption, LineSeriesOption } from 'echarts/charts';
import type {
  DataZoomComponentOption,
  GridComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import { INTRADAY_LINES, OVERLAY_LINES, VISIBLE_BARS, SUB_LINES, type SubChart } from '../shared/chart-lines';
import type { ChartPalette, ChartView, KlineSeries, LineKey } from './kline-types';

/** The option types of exactly the parts echarts-setup registers. */
export type KlineOption = ComposeOption<
  | CandlestickSeriesOption
  | LineSeriesOption
  | BarSeriesOption
  | GridComponentOption
  | TooltipComponentOption
  | DataZoomComponentOption
>;

export { VISIBLE_BARS };

/**
 * The zoom window of a new history, in percent of the axis: the latest VISIBLE_BARS bars of a K-line, the
 * whole session of an intraday view.
 */
export function initialZoom(
  count: number,
  mode: KlineSeries['mode'] = 'kline',
): { start: number; end: number } {
  if (mode === 'intraday') return { start: 0, end: 100 };
  return { start: count > VISIBLE_BARS ? 100 - (VISIBLE_BARS / count) * 100 : 0, end: 100 };
}

/**
 * The echarts option of one chart: the main grid (candles and the overlay, or intraday price and average)
 * and the sub-chart grid, linked for zoom and the crosshair. `zoom` is left out when the caller keeps the
 * user's zoom (a live update or a change of indicator).
 */
export function buildKlineOption(
  series: KlineSeries,
  view: ChartView,
  palette: ChartPalette,
  zoom?: { start: number; end: number },
): KlineOption {
  const intraday = series.mode === 'intraday';
  const sub: SubChart = intraday ? 'vol' : view.sub;
  const axisCommon = {
    axisLine: { lineStyle: { color: palette.border } },
    axisLabel: { color: palette.text2, fontSize: 10 },
    splitLine: { lineStyle: { color: palette.border, opacity: 0.6 } },
  };
  const line = (
    key: LineKey,
    index: number,
    axis: 0 | 1,
    color = palette.lines[index % palette.lines.length],
  ) => ({
    id: `line-${key}`,
    type: 'line' as const,
    name: key,
    xAxisIndex: axis,
    yAxisIndex: axis,
    data: series.lines[key] ?? [],
    showSymbol: false,
    smooth: false,
    animation: false,
    lineStyle: { width: 1, color },
    itemStyle: { color },
  });

  const main = intraday
    ? [line(INTRADAY_LINES[0]!, 0, 0, palette.accent), line(INTRADAY_LINES[1]!, 0, 0, palette.lines[0])]
    : [
        {
          id: 'candles',
          type: 'candlestick' as const,
          name: 'candles',
          xAxisIndex: 0,
          yAxisIndex: 0,
          data: series.candles,
          itemStyle: {
            color: palette.up,
            color0: palette.down,
            borderColor: palette.up,
            borderColor0: palette.down,
          },
        },
        ...OVERLAY_LINES[view.overlay].map((key, i) => line(key, i, 0)),
      ];

  const volumeColors = series.volumeColors;
  const macdBars = series.lines.macd ?? [];
  const lower =
    sub === 'vol'
      ? [
          {
            id: 'volume',
            type: 'bar' as const,
            name: 'volume',
            xAxisIndex: 1,
            yAxisIndex: 1,
            data: series.volume,
            itemStyle: { color: (p: { dataIndex: number }) => volumeColors[p.dataIndex] ?? palette.flat },
          },
          ...(intraday ? [] : SUB_LINES.vol.map((key, i) => line(key, i, 1))),
        ]
      : [
          ...(sub === 'macd'
            ? [
                {
                  id: 'macd',
                  type: 'bar' as const,
                  name: 'macd',
                  xAxisIndex: 1,
                  yAxisIndex: 1,
                  data: macdBars,
                  itemStyle: {
                    color: (p: { dataIndex: number }) =>
                      (macdBars[p.dataIndex] ?? 0) >= 0 ? palette.up : palette.down,
                  },
                },
              ]
            : []),
          ...SUB_LINES[sub].map((key, i) => line(key, i, 1)),
        ];

  return {
    animation: false,
    backgroundColor: 'transparent',
    textStyle: { fontFamily: 'inherit' },
    grid: [
      { left: 52, right: 8, top: 8, height: '60%' },
      { left: 52, right: 8, top: '74%', bottom: 20 },
    ],
    tooltip: {
      trigger: 'axis',
      // The readout above the chart shows the values; the tooltip only drives the crosshair. Its content is
      // an empty, invisible box rather than none: in a worker echarts draws it as canvas text, and with
      // `showContent: false` it repositions a box it never made when a zoom or pan refreshes the crosshair
      // (a TypeError on every drag frame).
      showContent: true,
      formatter: () => '',
      padding: 0,
      borderWidth: 0,
      borderColor: 'transparent',
      backgroundColor: 'transparent',
      shadowBlur: 0,
      axisPointer: {
        type: 'cross',
        link: [{ xAxisIndex: 'all' }],
        label: { backgroundColor: palette.text2 },
      },
    },
    xAxis: [
      {
        type: 'category',
        data: series.labels,
        gridIndex: 0,
        boundaryGap: true,
        ...axisCommon,
        axisLabel: { show: false },
      },
      { type: 'category', data: series.labels, gridIndex: 1, boundaryGap: true, ...axisCommon },
    ],
    yAxis: [
      { type: 'value', gridIndex: 0, scale: true, splitNumber: 4, ...axisCommon },
      { type: 'value', gridIndex: 1, scale: true, splitNumber: 2, ...axisCommon, axisLabel: { show: false } },
    ],
    ...(zoom
      ? { dataZoom: [{ type: 'inside' as const, xAxisIndex: [0, 1], ...zoom, minValueSpan: 10 }] }
      : {}),
    series: [...main, ...lower],
  };
}

import type { Palette } from '../theme/themes';
import type { KlineSeries } from './bridge';
import type { KlineOption } from './echarts-setup';

/** MA line colours, readable on both themes; the legend above the chart uses the same ones. */
export const MA_COLORS: readonly string[] = ['#e6a23c', '#3d8bfd', '#b35ad6', '#20a39e', '#8d6e63'];

/** How many of the latest bars the chart shows at first; the rest is a pan away. */
export const VISIBLE_BARS = 60;

export interface KlineLabels {
  candles: string;
  volume: string;
  ma: (period: number) => string;
}

/** The whole echarts option for a day K-line: candles and MA lines above, volume below. */
export function buildKlineOption(series: KlineSeries, palette: Palette, labels: KlineLabels): KlineOption {
  const count = series.dates.length;
  const start = count > VISIBLE_BARS ? 100 - (VISIBLE_BARS / count) * 100 : 0;
  const axisCommon = {
    axisLine: { lineStyle: { color: palette.border } },
    axisLabel: { color: palette.text2, fontSize: 10 },
    splitLine: { lineStyle: { color: palette.border, opacity: 0.6 } },
  };
  return {
    animation: false,
    backgroundColor: 'transparent',
    textStyle: { fontFamily: 'inherit' },
    grid: [
      { left: 48, right: 8, top: 8, height: '62%' },
      { left: 48, right: 8, top: '76%', bottom: 20 },
    ],
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'cross' },
      backgroundColor: palette.surface,
      borderColor: palette.border,
      textStyle: { color: palette.text, fontSize: 12 },
      confine: true,
    },
    xAxis: [
      {
        type: 'category',
        data: series.dates,
        gridIndex: 0,
        boundaryGap: true,
        ...axisCommon,
        axisLabel: { show: false },
      },
      { type: 'category', data: series.dates, gridIndex: 1, boundaryGap: true, ...axisCommon },
    ],
    yAxis: [
      { type: 'value', gridIndex: 0, scale: true, splitNumber: 4, ...axisCommon },
      { type: 'value', gridIndex: 1, scale: true, splitNumber: 2, ...axisCommon, axisLabel: { show: false } },
    ],
    dataZoom: [{ type: 'inside', xAxisIndex: [0, 1], start, end: 100, minValueSpan: 10 }],
    series: [
      {
        type: 'candlestick',
        name: labels.candles,
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
      ...series.ma.map((line, i) => ({
        type: 'line' as const,
        name: labels.ma(line.period),
        xAxisIndex: 0,
        yAxisIndex: 0,
        data: line.values,
        showSymbol: false,
        smooth: false,
        lineStyle: { width: 1, color: MA_COLORS[i % MA_COLORS.length] },
        itemStyle: { color: MA_COLORS[i % MA_COLORS.length] },
      })),
      {
        type: 'bar',
        name: labels.volume,
        xAxisIndex: 1,
        yAxisIndex: 1,
        stack: 'volume',
        data: series.volumeUp,
        itemStyle: { color: palette.up },
      },
      {
        type: 'bar',
        name: labels.volume,
        xAxisIndex: 1,
        yAxisIndex: 1,
        stack: 'volume',
        data: series.volumeDown,
        itemStyle: { color: palette.down },
      },
    ],
  };
}

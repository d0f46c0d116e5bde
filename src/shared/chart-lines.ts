/**
 * The K-line chart's indicator choices and which worker lines each draws (DOMAIN.md "Indicators"), shared
 * by the worker that draws them and the page's toolbar and readout.
 */

/** The main chart's overlay: moving averages, exponential averages or Bollinger bands. */
export type Overlay = 'ma' | 'ema' | 'boll';
/** The sub-chart under the candles. */
export type SubChart = 'vol' | 'macd' | 'kdj' | 'rsi';

export const OVERLAYS: readonly Overlay[] = ['ma', 'ema', 'boll'];
export const SUB_CHARTS: readonly SubChart[] = ['vol', 'macd', 'kdj', 'rsi'];

export const OVERLAY_LINES: Record<Overlay, readonly string[]> = {
  ma: ['ma5', 'ma10', 'ma20', 'ma30', 'ma60'],
  ema: ['ema12', 'ema26'],
  boll: ['bollMid', 'bollUpper', 'bollLower'],
};
export const SUB_LINES: Record<SubChart, readonly string[]> = {
  vol: ['volMa5', 'volMa10'],
  macd: ['dif', 'dea'],
  kdj: ['k', 'd', 'j'],
  rsi: ['rsi6', 'rsi12', 'rsi24'],
};
/** The readout's sub-chart values: MACD adds its bar. */
export const SUB_READOUT: Record<SubChart, readonly string[]> = {
  ...SUB_LINES,
  macd: ['dif', 'dea', 'macd'],
};
export const INTRADAY_LINES: readonly string[] = ['price', 'avg'];

/** Indicator line colours, readable on both themes; the readout uses the same ones. */
export const LINE_COLORS: readonly string[] = ['#e6a23c', '#3d8bfd', '#b35ad6', '#20a39e', '#8d6e63'];

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
/** How many of the latest bars the chart shows at first; the rest is a pinch or a drag away. */
export const VISIBLE_BARS = 60;

export const INTRADAY_LINES: readonly string[] = ['price', 'avg'];

/**
 * Indicator line colours per theme; the readout writes each value in its line's colour, so each must read
 * at WCAG AA (4.5:1) on the theme's surfaces: the conventional hues (MA5 orange, MA10 blue, MA20 purple,
 * MA30 teal, MA60 brown) lightened on the dark theme and darkened on the light one (both ≥ 4.5:1 on every
 * surface of their theme; tests/unit/chart-line-colors.test.ts checks it).
 */
export const LINE_COLORS_DARK: readonly string[] = ['#e6a23c', '#5c9dff', '#c98ae6', '#2bb8b2', '#b8998d'];
export const LINE_COLORS_LIGHT: readonly string[] = ['#965400', '#1f66d1', '#8e3fb0', '#137a76', '#7a5c51'];

/** The indicator line colours of a dark or a light theme. */
export function lineColorsFor(dark: boolean): readonly string[] {
  return dark ? LINE_COLORS_DARK : LINE_COLORS_LIGHT;
}

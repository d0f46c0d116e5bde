/** What crosses the worker boundary: bars as columns of typed arrays in, ready-to-draw series out. */
import type { Overlay, SubChart } from '../shared/chart-lines';
import type { BarValues } from './indicator-engine';

export type { BarValues } from './indicator-engine';

/** One bar per index, oldest first; each column is transferred, not copied. */
export interface BarColumns {
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
  /** Intraday only: the station's running average price (NaN where a row has none). */
  avg?: Float64Array;
}

/** 'kline': candles and indicators; 'intraday': today's price and average price lines and volume. */
export type ChartMode = 'kline' | 'intraday';

/** How the category axis labels a bar: "2025-03-12", "03-12 10:35" or "10:35". */
export type LabelStyle = 'date' | 'minute' | 'time';

/** The colours of a rising and a falling bar: the user's up/down convention (red-up or green-up). */
export interface UpDownColors {
  up: string;
  down: string;
}

export interface OpenSeriesRequest {
  bars: BarColumns;
  mode: ChartMode;
  labelStyle: LabelStyle;
  /** IANA zone the bar times are labelled in (the instrument's market). */
  timeZone?: string;
  colors: UpDownColors;
  /** BOLL with the sample standard deviation (N−1) instead of the population one. */
  bollSample?: boolean;
}

/**
 * Names of the lines the worker draws: ma5…ma60, ema12, ema26, bollMid/bollUpper/bollLower, dif, dea,
 * macd (the ×2 bar), k, d, j, rsi6/rsi12/rsi24, volMa5, volMa10, and intraday price and avg.
 */
export type LineKey = string;

export interface KlineSeries {
  mode: ChartMode;
  /** Category axis labels. */
  labels: string[];
  /** Candlestick data in echarts' order: [open, close, low, high]. */
  candles: [number, number, number, number][];
  volume: number[];
  /** Each volume bar's colour by the up/down convention passed in. */
  volumeColors: string[];
  /** Every line, one value per bar; null where it has no value yet (echarts leaves a gap). */
  lines: Record<LineKey, (number | null)[]>;
}

/** What one live bar changed: the values at `index`, which is a new bar when `appended`. */
export interface KlinePatch {
  index: number;
  appended: boolean;
  label: string;
  candle: [number, number, number, number];
  volume: number;
  volumeColor: string;
  lines: Record<LineKey, number | null>;
}

export type LiveBar = BarValues;

export type { Overlay, SubChart } from '../shared/chart-lines';

export interface ChartView {
  overlay: Overlay;
  sub: SubChart;
}

/** The theme colours the chart draws with. */
export interface ChartPalette {
  up: string;
  down: string;
  flat: string;
  text2: string;
  border: string;
  accent: string;
  /** The indicator lines' colours, in the order of chart-lines' line lists (the theme's, lineColorsFor). */
  lines: readonly string[];
}

/** The canvas' size in CSS pixels and the screen's pixel ratio. */
export interface ChartSize {
  width: number;
  height: number;
  dpr: number;
}

/**
 * A pointer event of the page's canvas, in echarts' (zrender's) terms and canvas CSS pixels: press,
 * move and release drive drag and the crosshair, `mousewheel` and `pinch` zoom, `leave` hides the crosshair.
 */
export type PointerMessage =
  | { type: 'mousedown' | 'mousemove' | 'mouseup'; x: number; y: number; touch: boolean }
  | { type: 'mousewheel'; x: number; y: number; delta: number }
  | { type: 'pinch'; x: number; y: number; scale: number }
  | { type: 'leave' };

/**
 * The bars in the chart's view (after a zoom or a pan, a new history or a live bar): the first and the last
 * one's index and time, so the page's text summary and table can list exactly what the chart shows.
 */
export interface KlineViewRange {
  first: number;
  last: number;
  firstTime: number;
  lastTime: number;
}

/** What the page shows beside the canvas: how many bars, and the values of the bar under the crosshair. */
export interface KlineSummary {
  mode: ChartMode;
  count: number;
  /** The latest bar's values, the readout when no bar is under the crosshair. */
  last: KlinePatch | null;
}

/** What crosses the worker boundary: bars as columns of typed arrays in, ready-to-draw series out. */

/** One bar per index, oldest first; each column is transferred, not copied. */
export interface BarColumns {
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
}

export interface KlineRequest {
  bars: BarColumns;
  /** The MA periods to draw, e.g. [5, 10, 20]. */
  maPeriods: number[];
  /** IANA zone the bar times are labelled in (the instrument's market). */
  timeZone?: string;
}

export interface MaLine {
  period: number;
  /** null where the MA has no value yet (the first period−1 bars): echarts leaves a gap. */
  values: (number | null)[];
  /** The latest value, for the legend. */
  last: number | null;
}

export interface KlineSeries {
  /** Category axis labels, "yyyy-MM-dd". */
  dates: string[];
  /** Candlestick data in echarts' order: [open, close, low, high]. */
  candles: [number, number, number, number][];
  /** Volume split by the bar's direction, so each half can take its colour: null where the other applies. */
  volumeUp: (number | null)[];
  volumeDown: (number | null)[];
  ma: MaLine[];
}

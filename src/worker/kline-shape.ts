import { DEFAULT_INDICATOR_SETTINGS, IndicatorEngine, type IndicatorLines } from './indicator-engine';
import type {
  KlinePatch,
  KlineSeries,
  LabelStyle,
  LineKey,
  LiveBar,
  OpenSeriesRequest,
  UpDownColors,
} from './kline-types';

const toNullable = (x: number): number | null => (Number.isFinite(x) ? x : null);
const pad = (n: number) => String(n).padStart(2, '0');

const HOUR_MS = 3_600_000;

/**
 * Formats bar times in one time zone. Intl is slow per call, so it is asked only for the zone's UTC
 * offset once per hour of time (offsets change on the hour); the label is then read off a shifted Date.
 */
export function makeLabeller(style: LabelStyle, timeZone?: string): (ms: number) => string {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  const offsets = new Map<number, number>();
  const offsetAt = (ms: number): number => {
    const hour = Math.floor(ms / HOUR_MS);
    let offset = offsets.get(hour);
    if (offset === undefined) {
      const at = hour * HOUR_MS;
      const parts: Record<string, number> = {};
      for (const part of format.formatToParts(at)) parts[part.type] = Number(part.value);
      const wall = Date.UTC(
        parts.year!,
        parts.month! - 1,
        parts.day!,
        parts.hour!,
        parts.minute!,
        parts.second!,
      );
      offset = wall - at;
      offsets.set(hour, offset);
    }
    return offset;
  };
  return (ms) => {
    const wall = new Date(ms + offsetAt(ms));
    const date = `${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}`;
    const time = `${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}`;
    if (style === 'date') return `${wall.getUTCFullYear()}-${date}`;
    if (style === 'minute') return `${date} ${time}`;
    return time;
  };
}

/** The named lines of an indicator result, in the chart's names. */
function namedLines(engine: IndicatorEngine, lines: IndicatorLines): [LineKey, Float64Array][] {
  const s = engine.settings;
  return [
    ...s.maPeriods.map((p, k): [LineKey, Float64Array] => [`ma${p}`, lines.ma[k]!]),
    ...s.emaPeriods.map((p, k): [LineKey, Float64Array] => [`ema${p}`, lines.ema[k]!]),
    ['bollMid', lines.bollMid],
    ['bollUpper', lines.bollUpper],
    ['bollLower', lines.bollLower],
    ['dif', lines.macdDif],
    ['dea', lines.macdDea],
    ['macd', lines.macdBar],
    ['k', lines.kdjK],
    ['d', lines.kdjD],
    ['j', lines.kdjJ],
    ...s.rsiPeriods.map((p, k): [LineKey, Float64Array] => [`rsi${p}`, lines.rsi[k]!]),
    ...s.volMaPeriods.map((p, k): [LineKey, Float64Array] => [`volMa${p}`, lines.volMa[k]!]),
    ['avg', lines.avgPrice],
  ];
}

/**
 * One chart's bars and indicator state in the worker: `open` shapes the whole history once, live bars
 * then go through `appendBar` / `updateLastBar`, which compute and shape only the bar that changed.
 */
export class KlineSession {
  private readonly engine: IndicatorEngine;
  private readonly label: (ms: number) => string;
  private readonly request: Omit<OpenSeriesRequest, 'bars'>;

  constructor(request: OpenSeriesRequest) {
    const { bars, ...rest } = request;
    this.request = rest;
    this.engine = new IndicatorEngine(
      request.bollSample
        ? { ...DEFAULT_INDICATOR_SETTINGS, boll: { ...DEFAULT_INDICATOR_SETTINGS.boll, sample: true } }
        : DEFAULT_INDICATOR_SETTINGS,
    );
    this.label = makeLabeller(request.labelStyle, request.timeZone);
    this.engine.load(bars);
  }

  /** Every bar's drawable values. */
  series(): KlineSeries {
    const bars = this.engine.bars();
    const n = bars.close.length;
    const labels = new Array<string>(n);
    const candles = new Array<[number, number, number, number]>(n);
    const volume = new Array<number>(n);
    const volumeColors = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      labels[i] = this.label(bars.time[i]!);
      candles[i] = [bars.open[i]!, bars.close[i]!, bars.low[i]!, bars.high[i]!];
      volume[i] = bars.volume[i]!;
      volumeColors[i] = this.volumeColor(bars, i);
    }
    const lines: Record<LineKey, (number | null)[]> = {};
    for (const [key, values] of namedLines(this.engine, this.engine.result())) {
      lines[key] = Array.from(values, toNullable);
    }
    lines.price = Array.from(bars.close, toNullable);
    return { mode: this.request.mode, labels, candles, volume, volumeColors, lines };
  }

  appendBar(bar: LiveBar): KlinePatch {
    this.engine.appendBar(bar);
    return this.patch(true);
  }

  updateLastBar(bar: LiveBar): KlinePatch {
    const appended = this.engine.length === 0;
    this.engine.updateLastBar(bar);
    return this.patch(appended);
  }

  get length(): number {
    return this.engine.length;
  }

  get mode(): OpenSeriesRequest['mode'] {
    return this.request.mode;
  }

  /** One bar's time (ms), or null outside the bars. */
  timeAt(index: number): number | null {
    if (!Number.isInteger(index) || index < 0 || index >= this.engine.length) return null;
    return this.engine.bars().time[index]!;
  }

  /** One bar's values (the readout of the crosshair), or null outside the bars. */
  barAt(index: number): KlinePatch | null {
    if (!Number.isInteger(index) || index < 0 || index >= this.engine.length) return null;
    return this.patch(false, index);
  }

  private patch(appended: boolean, index?: number): KlinePatch {
    const bars = this.engine.bars();
    const i = index ?? bars.close.length - 1;
    const lines: Record<LineKey, number | null> = {};
    for (const [key, values] of namedLines(this.engine, this.engine.result()))
      lines[key] = toNullable(values[i]!);
    lines.price = toNullable(bars.close[i]!);
    return {
      index: i,
      appended,
      label: this.label(bars.time[i]!),
      candle: [bars.open[i]!, bars.close[i]!, bars.low[i]!, bars.high[i]!],
      volume: bars.volume[i]!,
      volumeColor: this.volumeColor(bars, i),
      lines,
    };
  }

  /**
   * A K-line bar is up when it closes at or above its open (the candle's own rule); an intraday minute
   * is up when it closes at or above the minute before (the first minute: its open).
   */
  private volumeColor({ close, open }: { close: Float64Array; open: Float64Array }, i: number): string {
    const colors: UpDownColors = this.request.colors;
    const reference = this.request.mode === 'intraday' && i > 0 ? close[i - 1]! : open[i]!;
    return close[i]! >= reference ? colors.up : colors.down;
  }
}

/** Applies patches to shaped series in place. */
export function applyPatches(series: KlineSeries, patches: readonly KlinePatch[]): void {
  for (const patch of patches) {
    const i = patch.index;
    series.labels[i] = patch.label;
    series.candles[i] = patch.candle;
    series.volume[i] = patch.volume;
    series.volumeColors[i] = patch.volumeColor;
    for (const [key, value] of Object.entries(patch.lines)) {
      const line = series.lines[key] ?? (series.lines[key] = []);
      line[i] = value;
    }
  }
}

import { formatDateTime } from '../shared/format';
import { movingAverage } from './indicators';
import type { KlineRequest, KlineSeries, MaLine } from './kline-types';

const toNullable = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** Turns bar columns into the series the chart draws: candles, volume by direction and MA lines. */
export function shapeKline({ bars, maPeriods, timeZone }: KlineRequest): KlineSeries {
  const n = bars.close.length;
  const dates: string[] = new Array<string>(n);
  const candles: [number, number, number, number][] = new Array<[number, number, number, number]>(n);
  const volumeUp: (number | null)[] = new Array<number | null>(n);
  const volumeDown: (number | null)[] = new Array<number | null>(n);
  for (let i = 0; i < n; i++) {
    const open = bars.open[i]!;
    const close = bars.close[i]!;
    dates[i] = formatDateTime(bars.time[i]!, timeZone).slice(0, 10);
    candles[i] = [open, close, bars.low[i]!, bars.high[i]!];
    // A bar is "up" when it closes at or above its open, the candlestick's own rule.
    const up = close >= open;
    volumeUp[i] = up ? bars.volume[i]! : null;
    volumeDown[i] = up ? null : bars.volume[i]!;
  }
  const ma: MaLine[] = maPeriods.map((period) => {
    const values = Array.from(movingAverage(bars.close, period), toNullable);
    return { period, values, last: n > 0 ? (values[n - 1] ?? null) : null };
  });
  return { dates, candles, volumeUp, volumeDown, ma };
}

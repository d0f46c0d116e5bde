import type { KlinePatch, Overlay, SubChart } from './bridge';
import { INTRADAY_LINES, OVERLAY_LINES, SUB_READOUT } from '../../shared/chart-lines';
import { formatMoney } from '../../shared/format';

export interface KlineReadoutProps {
  bar: KlinePatch;
  intraday: boolean;
  overlay: Overlay;
  sub: SubChart;
  fmt: (value: number | null | undefined, digits?: number) => string;
  lineName: (key: string) => string;
  lineColors: readonly string[];
  labels: Record<'open' | 'high' | 'low' | 'close' | 'price' | 'volume', string>;
  locale: string;
}

/** The crosshair's bar (or the latest one): OHLC, or price and average intraday, and the indicator values. */
export function KlineReadout({
  bar,
  intraday,
  overlay,
  sub,
  fmt,
  lineName,
  lineColors,
  labels,
  locale,
}: KlineReadoutProps) {
  const [open, close, low, high] = bar.candle;
  const row = (keys: readonly string[]) =>
    keys.map((key, i) => (
      <span key={key} style={{ color: lineColors[i % lineColors.length] }}>
        {lineName(key)} {fmt(bar.lines[key], key.startsWith('volMa') ? 0 : undefined)}
      </span>
    ));
  return (
    <div className="kline-readout num" data-testid="kline-readout">
      <div>
        <span className="muted">{bar.label}</span>
        {intraday ? (
          <>
            <span data-testid="kline-readout-close">
              {labels.price} {fmt(close)}
            </span>
            {row(INTRADAY_LINES.slice(1))}
          </>
        ) : (
          <>
            <span>
              {labels.open} {fmt(open)}
            </span>
            <span>
              {labels.high} {fmt(high)}
            </span>
            <span>
              {labels.low} {fmt(low)}
            </span>
            <span data-testid="kline-readout-close">
              {labels.close} {fmt(close)}
            </span>
          </>
        )}
        <span>
          {labels.volume} {formatMoney(bar.volume, locale, 0)}
        </span>
      </div>
      {!intraday && (
        <div>
          {row(OVERLAY_LINES[overlay])}
          {row(SUB_READOUT[sub])}
        </div>
      )}
    </div>
  );
}

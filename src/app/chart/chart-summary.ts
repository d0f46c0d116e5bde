import type { useI18nContext } from '../../../locales/i18n-react';
import type { Bar } from '../../shared/api/types';
import {
  INTRADAY_LINES,
  OVERLAY_LINES,
  SUB_READOUT,
  type Overlay,
  type SubChart,
} from '../../shared/chart-lines';
import { formatPct } from '../../shared/format';
import type { KlinePatch } from './bridge';

type Translations = ReturnType<typeof useI18nContext>['LL'];

export interface ChartSummaryInput {
  LL: Translations;
  locale: string;
  code: string;
  periodName: string;
  /** The bars in view, oldest first. */
  visible: readonly Bar[];
  mode: 'kline' | 'intraday';
  /** The latest bar's values, whose indicator lines the summary reads out. */
  last: KlinePatch | null;
  overlay: Overlay;
  sub: SubChart;
  fmt: (value: number | null | undefined, digits?: number) => string;
  lineName: (key: string) => string;
}

/**
 * The chart in words, for a screen reader (the canvas' description): the last price in view and its move,
 * the high and low of the bars in view, and the indicator lines' latest values. Null with no bar in view.
 */
export function chartSummary({
  LL,
  locale,
  code,
  periodName,
  visible,
  mode,
  last,
  overlay,
  sub,
  fmt,
  lineName,
}: ChartSummaryInput): string | null {
  const lastRow = visible.at(-1);
  if (!lastRow) return null;
  const close = lastRow[4];
  const before = visible.at(-2)?.[4] ?? lastRow[1];
  const change = close - before;
  const direction = change > 0 ? 'up' : change < 0 ? 'down' : 'flat';
  const lineKeys =
    mode === 'intraday' ? INTRADAY_LINES.slice(1) : [...OVERLAY_LINES[overlay], ...SUB_READOUT[sub]];
  let summary = [
    LL.chart.summary({ code, period: periodName, price: fmt(close) }),
    LL.chart.summaryChange({
      direction: LL.priceMove[direction](),
      change: `${change > 0 ? '+' : ''}${fmt(change)}`,
      pct: before ? formatPct(change / before, locale) : '--',
    }),
    LL.chart.summaryRange({
      high: fmt(Math.max(...visible.map((row) => row[2]))),
      low: fmt(Math.min(...visible.map((row) => row[3]))),
      count: String(visible.length),
    }),
  ].join(', ');
  if (last) {
    const values = lineKeys
      .map((k) => `${lineName(k)} ${fmt(last.lines[k], k.startsWith('volMa') ? 0 : undefined)}`)
      .join(', ');
    if (values) summary += `. ${LL.chart.summaryLines({ lines: values })}`;
  }
  return summary;
}

/** The page's copy of a chart's bars: which of them are in view, and how live rows join the history. */
import type { Bar } from '../../shared/api/types';
import { VISIBLE_BARS } from '../../shared/chart-lines';
import type { ChartPeriod } from './kline-data';

/** The first and last bar time of the chart's view (as the worker reports it, KlineViewRange). */
export interface ViewTimes {
  firstTime: number;
  lastTime: number;
}

/**
 * The bars in the chart's view: those from the reported range's first bar to its last, found by time; until
 * a range of this history is reported, those the chart opens with (the last VISIBLE_BARS, or the whole
 * intraday session).
 */
export function barsInView(
  rows: readonly Bar[],
  period: ChartPeriod,
  range: ViewTimes | null,
): readonly Bar[] {
  if (range) {
    const first = rows.findIndex((row) => row[0] === range.firstTime);
    if (first >= 0) {
      let last = first;
      while (last + 1 < rows.length && rows[last + 1]![0] <= range.lastTime) last += 1;
      return rows.slice(first, last + 1);
    }
  }
  return period === 'intraday' ? rows : rows.slice(-VISIBLE_BARS);
}

/** The history with later rows merged in as the worker's feed takes them: the same time replaces, later appends. */
export function mergeRows(rows: readonly Bar[], later: readonly Bar[]): readonly Bar[] {
  let merged = rows;
  for (const row of later) {
    const tail = merged.at(-1);
    if (!tail || row[0] > tail[0]) merged = [...merged, row];
    else if (row[0] === tail[0]) merged = [...merged.slice(0, -1), row];
  }
  return merged;
}

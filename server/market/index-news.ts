/** Simulated market reports of the indexes, written from each complete trading day's bar. */
import type { IndexNews } from '../../src/shared/api/types';
import type { IndexDef } from './catalogue';
import type { InstrumentCatalogue } from './instrument-catalogue';
import type { DayRecord } from './series-spec';
import { round } from './quotes';
import { DAY_MS, dayCloseTime, isTradingDay, previousTradingDay, sessionPosition } from './sessions';

/** A move smaller than this (0.3%) is reported as little changed. */
const FLAT_MOVE = 0.003;
/** A move of this much (2%) or more is a surge or a slump. */
const BIG_MOVE = 0.02;

/**
 * Market reports of the indexes (of one region, or one index): one per index and complete trading day over
 * its last `days` trading days, newest first. Each is written from the day's bar, so it agrees with the
 * index's day bars.
 */
export function indexNews(
  catalogue: InstrumentCatalogue,
  filter: { code?: string; region?: IndexDef['region'] },
  days: number,
  t: number,
): IndexNews[] {
  const out: IndexNews[] = [];
  const defs = catalogue
    .indexes()
    .filter(
      (def) =>
        (filter.code === undefined || def.code === filter.code.toUpperCase()) &&
        (filter.region === undefined || def.region === filter.region),
    );
  for (const def of defs) {
    const instrument = catalogue.getIndex(def.code);
    const hours = catalogue.hours(instrument);
    const series = catalogue.series(instrument);
    const pos = sessionPosition(t, hours);
    let day =
      pos.elapsed >= series.spec.minutesPerDay && isTradingDay(pos.day, hours)
        ? pos.day
        : previousTradingDay(pos.day, hours);
    for (let n = 0; n < days && day >= catalogue.anchorDay; n++, day = previousTradingDay(day, hours)) {
      out.push(report(def, series.record(day), dayCloseTime(day, hours)));
    }
  }
  return out.sort((a, b) => b.time - a.time || (a.code < b.code ? -1 : 1));
}

/** The report of one index's day, in Chinese and English. */
function report(def: IndexDef, r: DayRecord, time: number): IndexNews {
  const change = (r.close - r.prevClose) / r.prevClose;
  const pct = Math.abs(change * 100).toFixed(2);
  const close = r.close.toFixed(2);
  const flat = Math.abs(change) < FLAT_MOVE;
  const [verb, verbEn] = flat
    ? ['窄幅震荡，收', 'is little changed,']
    : change >= BIG_MOVE
      ? ['大涨', 'surges']
      : change > 0
        ? ['收涨', 'closes up']
        : change <= -BIG_MOVE
          ? ['大跌', 'slumps']
          : ['收跌', 'closes down'];
  const signed = `${change < 0 ? '-' : change > 0 ? '+' : ''}${pct}`;
  const date = new Date(r.day * DAY_MS).toISOString().slice(0, 10);
  return {
    id: `${def.code}-${date}`,
    code: def.code,
    time,
    title: flat ? `${def.name}${verb}${signed}%，报${close}点` : `${def.name}${verb}${pct}%，报${close}点`,
    titleEn: flat
      ? `${def.nameEn} ${verbEn} ${signed}% at ${close}`
      : `${def.nameEn} ${verbEn} ${pct}% at ${close}`,
    summary: `${date}，${def.name}开盘${r.open.toFixed(2)}点，盘中最高${r.high.toFixed(2)}点、最低${r.low.toFixed(2)}点，收于${close}点。`,
    summaryEn: `On ${date} the ${def.nameEn} opened at ${r.open.toFixed(2)}, traded between ${r.low.toFixed(2)} and ${r.high.toFixed(2)} and closed at ${close}.`,
    changePct: round(change, 6),
    close: r.close,
  };
}

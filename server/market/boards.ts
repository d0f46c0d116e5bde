/**
 * The market's boards: the limit-up board, rankings by rise, fall or turnover, the counts of rising and
 * falling stocks, and the list of suspended and resumed stocks. Each reads one market's quotes at `t`.
 */
import type { HaltEntry, LimitUpEntry, MoveCounts, Quote, StockMarket } from '../../src/shared/api/types';
import type { Instrument } from './catalogue';
import type { InstrumentCatalogue } from './instrument-catalogue';
import type { QuoteSort, Quotes } from './quotes';
import { elapsedToUtc, localMinuteToUtc } from './sessions';

/** Stocks of one market sitting at their limit-up now, earliest to reach it first. */
export function limitUpBoard(
  catalogue: InstrumentCatalogue,
  quotes: Quotes,
  market: StockMarket,
  t: number,
): LimitUpEntry[] {
  const out: LimitUpEntry[] = [];
  for (const quote of quotes.quotesOf(market, t).quotes) {
    const instrument = catalogue.stock(quote.code)!;
    const hours = catalogue.hours(instrument);
    const pos = catalogue.position(instrument, t);
    const series = catalogue.series(instrument);
    const record = series.record(pos.day);
    if (!record.limits || record.suspended || quote.price !== record.limits.up) continue;
    const path = series.path(pos.day);
    const done = Math.min(Math.floor(pos.elapsed), series.spec.minutesPerDay);
    let k = 0;
    while (k < done && path.prices[k]! < record.limits.up) k++;
    out.push({
      code: quote.code,
      name: quote.name,
      market,
      price: quote.price,
      prevClose: quote.prevClose,
      changePct: quote.changePct,
      turnover: quote.turnover,
      firstReached: Math.round(elapsedToUtc(pos.day, k, hours)),
    });
  }
  return out.sort((a, b) => a.firstReached - b.firstReached || (a.code < b.code ? -1 : 1));
}

/** The first `limit` quotes of a market by rise, fall or turnover. */
export function topQuotes(
  quotes: Quotes,
  market: StockMarket,
  by: 'gainers' | 'losers' | 'turnover',
  limit: number,
): Quote[] {
  const sort: QuoteSort = by === 'gainers' ? '-changePct' : by === 'losers' ? 'changePct' : '-turnover';
  return quotes.list(market, { sort, pageNum: 1, pageSize: limit }).list;
}

/** Counts of one market's stocks by the current day's move (suspended stocks count only as suspended). */
export function moveCounts(
  catalogue: InstrumentCatalogue,
  quotes: Quotes,
  market: StockMarket,
  t: number,
): MoveCounts {
  const counts: MoveCounts = {
    market,
    rising: 0,
    falling: 0,
    flat: 0,
    limitUp: 0,
    limitDown: 0,
    suspended: 0,
    total: 0,
    time: t,
  };
  for (const quote of quotes.quotesOf(market, t).quotes) {
    const instrument = catalogue.stock(quote.code)!;
    const record = catalogue.series(instrument).record(catalogue.position(instrument, t).day);
    counts.total++;
    if (record.suspended) {
      counts.suspended++;
      continue;
    }
    if (quote.price > quote.prevClose) counts.rising++;
    else if (quote.price < quote.prevClose) counts.falling++;
    else counts.flat++;
    if (record.limits && quote.price === record.limits.up) counts.limitUp++;
    if (record.limits && quote.price === record.limits.down) counts.limitDown++;
  }
  return counts;
}

/** Stocks of one market suspended now, or resumed within the last five trading days; suspended first. */
export function halts(
  catalogue: InstrumentCatalogue,
  quotes: Quotes,
  market: StockMarket,
  t: number,
): HaltEntry[] {
  const out: HaltEntry[] = [];
  for (const instrument of catalogue.stocks) {
    if (instrument.market !== market || !catalogue.isListed(instrument, t)) continue;
    const entry = haltOf(catalogue, quotes, instrument, t);
    if (entry) out.push(entry);
  }
  return out.sort((a, b) =>
    a.state === b.state ? b.since - a.since || (a.code < b.code ? -1 : 1) : a.state === 'suspended' ? -1 : 1,
  );
}

/** The stock's halt entry: suspended today, or resumed within the last five trading days; else none. */
function haltOf(
  catalogue: InstrumentCatalogue,
  quotes: Quotes,
  instrument: Instrument,
  t: number,
): HaltEntry | undefined {
  const { anchorDay } = catalogue;
  const hours = catalogue.hours(instrument);
  const series = catalogue.series(instrument);
  const today = catalogue.position(instrument, t).day;
  const tradingDayBefore = (day: number) => {
    let d = day - 1;
    while (d > anchorDay && !series.record(d).trading) d--;
    return d;
  };
  const suspendedRun = (last: number) => {
    let first = last;
    let days = 0;
    for (let d = last; d >= anchorDay && series.record(d).suspended; d = tradingDayBefore(d)) {
      first = d;
      days++;
    }
    return { first, days };
  };
  const entry = (state: HaltEntry['state'], day: number, days: number): HaltEntry => {
    const quote = quotes.quote(instrument, t);
    return {
      code: instrument.code,
      name: instrument.name,
      market: instrument.market,
      state,
      since: localMinuteToUtc(day, 0, hours.timeZone),
      days,
      prevClose: quote.prevClose,
      price: quote.price,
    };
  };
  if (series.record(today).suspended) {
    const run = suspendedRun(today);
    return entry('suspended', run.first, run.days);
  }
  let day = today;
  for (let i = 0; i < 5 && day > anchorDay; i++, day = tradingDayBefore(day)) {
    if (series.record(day).resumed) return entry('resumed', day, suspendedRun(tradingDayBefore(day)).days);
  }
  return undefined;
}

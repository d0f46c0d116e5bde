/**
 * Bars of one instrument at the clock's "now": day, week and month bars over the whole simulated history
 * (as traded, or adjusted for corporate actions) and minute bars of the last few trading days.
 */
import type { Adjust, Bar, DayPeriod, MinutePeriod } from '../../src/shared/api/types';
import type { Instrument } from './catalogue';
import type { InstrumentCatalogue } from './instrument-catalogue';
import type { InstrumentSeries } from './price-engine';
import { priceDecimals, round } from './quotes';
import { DAY_MS, localMinuteToUtc, previousTradingDay, sessionPosition, sessionsOn } from './sessions';

/** Trading days of minute bars the 1, 5, 30 and 60 minute periods serve (the current one included). */
export const MINUTE_HISTORY_DAYS = 5;

/** Completed day-bar histories kept before the memo is cleared. */
const HISTORY_MEMO_SIZE = 5000;

/** An adjusted price: exact when the factor is 1, else to 4 decimals. */
function adjusted(price: number, factor: number): number {
  return factor === 1 ? price : Math.round(price * factor * 10_000) / 10_000;
}

/** The group a day belongs to: itself, its Monday-based week, or its month. */
function groupOf(period: DayPeriod, day: number): number {
  if (period === 'day') return day;
  if (period === 'week') return Math.floor((day + 3) / 7);
  const date = new Date(day * DAY_MS);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}

/** The local day of a bar time (local midnight, in any zone within ±12 hours of UTC). */
function localDayOfTime(t: number): number {
  return Math.floor((t + 12 * 3_600_000) / DAY_MS);
}

/** The cumulative factor that adjusts `day`'s prices: backward from the first day, forward to `today`. */
function adjustFactor(series: InstrumentSeries, day: number, today: number, adjust: Adjust): number {
  if (adjust === 'none') return 1;
  const factor = series.record(day).factor;
  return adjust === 'backward' ? factor : factor / series.record(today).factor;
}

/** The last `limit` bars starting before `before` (all of them without it); bars are oldest first. */
function lastBarsBefore(bars: Bar[], limit: number, before?: number): Bar[] {
  let end = bars.length;
  if (before !== undefined) {
    let lo = 0;
    let hi = bars.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (bars[mid]![0] < before) lo = mid + 1;
      else hi = mid;
    }
    end = lo;
  }
  return bars.slice(Math.max(0, end - limit), end);
}

export class Bars {
  private readonly history = new Map<string, { bars: Bar[]; lastDay: number }>();

  constructor(private readonly catalogue: InstrumentCatalogue) {}

  /**
   * What an instrument's bars depend on besides the query: its market's current day and the minutes of it
   * done. Two calls with the same query and the same value answer the same bars.
   */
  barClock(instrument: Instrument, t = this.catalogue.clock.now()): string {
    const pos = sessionPosition(t, this.catalogue.hours(instrument));
    return `${pos.day}:${Math.floor(pos.elapsed)}`;
  }

  /**
   * Day, week or month bars, oldest first, ending with today's bar so far; only bars starting before
   * `before`. Suspended days have no bar. Adjusted bars multiply prices by the cumulative factor of each
   * day: backward from the first day, forward so that today's prices are unchanged.
   */
  dayBars(
    instrument: Instrument,
    period: DayPeriod,
    limit: number,
    before?: number,
    adjust: Adjust = 'none',
  ): Bar[] {
    const hours = this.catalogue.hours(instrument);
    const series = this.catalogue.series(instrument);
    const pos = sessionPosition(this.catalogue.clock.now(), hours);
    const complete = pos.elapsed >= series.spec.minutesPerDay;
    // Completed history is memoised per instrument, period, adjustment and current day.
    const key = `${instrument.code}|${period}|${adjust}|${pos.day}|${complete ? 1 : 0}`;
    let cached = this.history.get(key);
    if (!cached) {
      const lastDay = complete ? pos.day : pos.day - 1;
      cached = { bars: this.buildBars(instrument, period, adjust, lastDay, pos.day), lastDay };
      if (this.history.size > HISTORY_MEMO_SIZE) this.history.clear();
      this.history.set(key, cached);
    }
    let bars = cached.bars;
    const today = series.record(pos.day);
    if (!complete && today.trading && !today.suspended && today.listed) {
      const path = series.path(pos.day);
      const k = Math.floor(pos.elapsed);
      const f = adjustFactor(series, pos.day, pos.day, adjust);
      const time = localMinuteToUtc(pos.day, 0, hours.timeZone);
      const part: Bar = [
        time,
        adjusted(path.prices[0]!, f),
        adjusted(path.runHigh[k]!, f),
        adjusted(path.runLow[k]!, f),
        adjusted(path.prices[k]!, f),
        path.runVolume[k]!,
      ];
      const last = bars[bars.length - 1];
      if (last && period !== 'day' && groupOf(period, localDayOfTime(last[0])) === groupOf(period, pos.day)) {
        bars = [
          ...bars.slice(0, -1),
          [
            last[0],
            last[1],
            Math.max(last[2], part[2]),
            Math.min(last[3], part[3]),
            part[4],
            last[5] + part[5],
          ],
        ];
      } else {
        bars = [...bars, part];
      }
    }
    return lastBarsBefore(bars, limit, before);
  }

  /** The completed bars from the start of the history to `lastDay`, adjusted as of `today`. */
  private buildBars(
    instrument: Instrument,
    period: DayPeriod,
    adjust: Adjust,
    lastDay: number,
    today: number,
  ): Bar[] {
    const hours = this.catalogue.hours(instrument);
    const series = this.catalogue.series(instrument);
    const bars: Bar[] = [];
    let group: number | null = null;
    for (let day = this.catalogue.anchorDay; day <= lastDay; day++) {
      const r = series.record(day);
      if (!r.trading || r.suspended || !r.listed) continue;
      const f = adjustFactor(series, day, today, adjust);
      const o = adjusted(r.open, f);
      const h = adjusted(r.high, f);
      const l = adjusted(r.low, f);
      const c = adjusted(r.close, f);
      const g = groupOf(period, day);
      const last = bars[bars.length - 1];
      if (period !== 'day' && last && g === group) {
        last[2] = Math.max(last[2], h);
        last[3] = Math.min(last[3], l);
        last[4] = c;
        last[5] += r.volume;
      } else {
        bars.push([localMinuteToUtc(day, 0, hours.timeZone), o, h, l, c, r.volume]);
        group = g;
      }
    }
    return bars;
  }

  /**
   * Minute bars (time = the bar's start), oldest first, aggregated per session. `intraday` is the current
   * trading day's session so far (rows add the running average price); 1, 5, 30 and 60 minutes cover the
   * last MINUTE_HISTORY_DAYS trading days of the instrument's market up to now (days it was suspended or not
   * yet listed have none). On a half day the bars cover the shorter sessions, each one summing the part of
   * the day's path it ran through.
   */
  minuteBars(instrument: Instrument, period: MinutePeriod): Bar[] {
    const hours = this.catalogue.hours(instrument);
    const series = this.catalogue.series(instrument);
    const pos = sessionPosition(this.catalogue.clock.now(), hours);
    const done = Math.min(Math.floor(pos.elapsed), series.spec.minutesPerDay);
    if (period === 'intraday') {
      return series.record(pos.day).listed ? this.dayMinuteBars(instrument, pos.day, period, done) : [];
    }
    const days = [pos.day];
    for (let n = 1, d = pos.day; n < MINUTE_HISTORY_DAYS; n++) {
      d = previousTradingDay(d, hours);
      if (d < this.catalogue.anchorDay) break;
      days.unshift(d);
    }
    const bars: Bar[] = [];
    for (const day of days) {
      const r = series.record(day);
      if (!r.listed || (day !== pos.day && (!r.trading || r.suspended))) continue;
      bars.push(
        ...this.dayMinuteBars(instrument, day, period, day === pos.day ? done : series.spec.minutesPerDay),
      );
    }
    return bars;
  }

  /** One trading day's minute bars over its first `done` path minutes. */
  private dayMinuteBars(instrument: Instrument, day: number, period: MinutePeriod, done: number): Bar[] {
    const hours = this.catalogue.hours(instrument);
    const series = this.catalogue.series(instrument);
    const path = series.path(day);
    const full = series.spec.minutesPerDay;
    const sessions = sessionsOn(day, hours);
    const dayLength = sessions.reduce((sum, [start, end]) => sum + (end - start), 0);
    const pathIndex = (realElapsed: number) => Math.round((realElapsed * full) / dayLength);
    const size = period === 'intraday' || period === '1' ? 1 : Number(period);
    const bars: Bar[] = [];
    let sessionStart = 0;
    for (const [start, end] of sessions) {
      const length = end - start;
      for (let offset = 0; offset < length; offset += size) {
        const from = pathIndex(sessionStart + offset); // path minutes k = from+1 … to
        const to = Math.min(pathIndex(Math.min(sessionStart + offset + size, sessionStart + length)), done);
        if (to <= from) break;
        let high = -Infinity;
        let low = Infinity;
        let volume = 0;
        for (let k = from + 1; k <= to; k++) {
          high = Math.max(high, path.highs[k]!);
          low = Math.min(low, path.lows[k]!);
          volume += path.volumes[k]!;
        }
        const time = localMinuteToUtc(day, start + offset, hours.timeZone);
        const bar: Bar = [time, path.prices[from]!, high, low, path.prices[to]!, volume];
        if (period === 'intraday') {
          const cumVolume = path.runVolume[to]!;
          const average = cumVolume > 0 ? path.runTurnover[to]! / cumVolume : path.prices[to]!;
          bars.push([...bar, round(average, priceDecimals(instrument, average) + 1)]);
        } else {
          bars.push(bar);
        }
      }
      sessionStart += length;
    }
    return bars;
  }
}

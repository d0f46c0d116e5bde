/**
 * The imported history a replay plays (MARKET_SOURCE=replay), read from the database once when the station
 * starts: every day bar, the minute bars from a little before the replay's start (the minutes of earlier
 * days are never replayed nor shown: minute charts cover the last few trading days), and the instruments
 * outside the catalogue, which join the station's stocks with simulation figures taken from their bars.
 * An import made while a replay runs is seen from the station's next start.
 */
import type { Db } from '../../platform';
import type { Instrument } from '../catalogue';
import type { MarketHistory } from '../instrument-catalogue';
import type { ImportedBar, ImportedMinute, SeriesHistory } from '../series-spec';
import { DAY_MS, MINUTE_MS, dateOfDay, sessionPosition, type MarketHours } from '../sessions';
import { addedInstrument } from './instruments';

/** Days of minute bars read before the replay's start: the minute charts' five trading days and holidays. */
const MINUTES_BEFORE_START_MS = 14 * DAY_MS;
/** Board lots of instruments outside the catalogue (a US share trades singly). */
const LOT = { a: 100, star: 200, hk: 100, us: 1 } as const;

interface StoredMinute extends ImportedBar {
  t: number;
  day: number;
}

interface CodeHistory {
  days: Map<number, ImportedBar>;
  minutes: StoredMinute[];
  firstDay: number;
  lastDay: number;
}

/** Days of simulated history before a replay's start, for the instruments without history: a year and more. */
const SIMULATED_DAYS_BEFORE_START = 400;
let loaded = 0;

/** The history of the whole database, by code, as the market's catalogue replays it (MarketHistory). */
export class ReplayHistory implements MarketHistory {
  private readonly built = new Map<string, SeriesHistory | null>();
  /** Each load its own series in the process-wide cache (two stations in one test process may differ). */
  readonly key = `replay#${++loaded}`;
  readonly anchorDay: number;

  constructor(
    private readonly byCode: ReadonlyMap<string, CodeHistory>,
    /** The imported instruments outside the catalogue, as the station's stocks. */
    readonly addedStocks: readonly Instrument[],
    startAt: number,
  ) {
    const first = Math.min(...[...byCode.values()].map((h) => h.firstDay));
    this.anchorDay = Math.min(Math.floor(startAt / DAY_MS) - SIMULATED_DAYS_BEFORE_START, first - 1);
  }

  get codes(): string[] {
    return [...this.byCode.keys()];
  }

  /** `code`'s history for the engine, its minutes placed on `hours`' path; undefined without any. */
  seriesHistory(code: string, hours: MarketHours): SeriesHistory | undefined {
    const known = this.built.get(code);
    if (known !== undefined) return known ?? undefined;
    const stored = this.byCode.get(code);
    const built = stored ? toSeriesHistory(stored, hours) : null;
    this.built.set(code, built);
    return built ?? undefined;
  }
}

/** The daily volatility of a run of bars: the root mean square of their Parkinson estimates. */
function dailySigmaOf(bars: Iterable<ImportedBar>): number {
  let sum = 0;
  let n = 0;
  for (const bar of bars) {
    const r = Math.log(bar.high / bar.low) / Math.sqrt(4 * Math.LN2);
    sum += r * r;
    n++;
  }
  const sigma = n === 0 ? 0 : Math.sqrt(sum / n);
  // A run of flat bars shows no volatility: the simulation after it still moves a little.
  return sigma > 0.001 ? sigma : 0.01;
}

function toSeriesHistory(stored: CodeHistory, hours: MarketHours): SeriesHistory {
  const minutesByDay = new Map<number, ImportedMinute[]>();
  for (const m of stored.minutes) {
    // A minute starting at t ends path minute ⌊elapsed at t⌋ + 1 (a session's first minute is 1).
    const k = Math.floor(sessionPosition(m.t, hours).elapsed + 1e-9) + 1;
    let list = minutesByDay.get(m.day);
    if (!list) minutesByDay.set(m.day, (list = []));
    list.push({ k, open: m.open, high: m.high, low: m.low, close: m.close, volume: m.volume });
  }
  const days = new Map(stored.days);
  // A day with imported minutes is their aggregate, so its path and its bar agree.
  for (const [day, list] of minutesByDay) {
    days.set(day, {
      open: list[0]!.open,
      high: Math.max(...list.map((m) => m.high)),
      low: Math.min(...list.map((m) => m.low)),
      close: list[list.length - 1]!.close,
      volume: list.reduce((sum, m) => sum + m.volume, 0),
    });
  }
  const firstDay = Math.min(stored.firstDay, ...minutesByDay.keys());
  const lastDay = Math.max(stored.lastDay, ...minutesByDay.keys());
  return {
    firstDay,
    lastDay,
    firstOpen: days.get(firstDay)!.open,
    lastClose: days.get(lastDay)!.close,
    dailySigma: dailySigmaOf(days.values()),
    day: (day) => days.get(day),
    minutes: (day) => minutesByDay.get(day),
  };
}

/** Reads the imported history a replay starting at `startAt` plays. */
export async function loadReplayHistory(db: Db, startAt: number): Promise<ReplayHistory> {
  const byCode = new Map<string, CodeHistory>();
  const entry = (code: string, day: number) => {
    let h = byCode.get(code);
    if (!h) byCode.set(code, (h = { days: new Map(), minutes: [], firstDay: day, lastDay: day }));
    h.firstDay = Math.min(h.firstDay, day);
    h.lastDay = Math.max(h.lastDay, day);
    return h;
  };
  const dayRows = await db
    .selectFrom('history_day_bars')
    .select(['code', 'day', 'open', 'high', 'low', 'close', 'volume'])
    .orderBy('code')
    .orderBy('day')
    .execute();
  for (const r of dayRows) {
    entry(r.code, r.day).days.set(r.day, {
      open: r.open,
      high: r.high,
      low: r.low,
      close: r.close,
      volume: Number(r.volume),
    });
  }
  const minuteRows = await db
    .selectFrom('history_minute_bars')
    .select(['code', 't', 'day', 'open', 'high', 'low', 'close', 'volume'])
    .where('t', '>=', startAt - MINUTES_BEFORE_START_MS)
    .orderBy('code')
    .orderBy('t')
    .execute();
  for (const r of minuteRows) {
    entry(r.code, r.day).minutes.push({
      t: Number(r.t),
      day: r.day,
      open: r.open,
      high: r.high,
      low: r.low,
      close: r.close,
      volume: Number(r.volume),
    });
  }
  const added = await db
    .selectFrom('history_instruments')
    .select(['code', 'market', 'name', 'currency'])
    .execute();
  const addedStocks = added
    .filter((row) => byCode.has(row.code))
    .map((row) => {
      const h = byCode.get(row.code)!;
      const bars = [...h.days.values()];
      const volumes = bars.map((b) => b.volume).filter((v) => v > 0);
      const first = h.days.get(h.firstDay) ?? h.minutes[0]!;
      const lot = LOT[row.market];
      return {
        ...addedInstrument(row),
        lotSize: lot,
        // Quoted from its first day of history; the simulation after it starts from the last close.
        listedOn: dateOfDay(Math.min(h.firstDay, h.minutes[0]?.day ?? h.firstDay)),
        referencePrice: first.open,
        volatility: dailySigmaOf(bars) * Math.sqrt(252),
        avgDailyVolume:
          volumes.length === 0 ? lot : Math.max(lot, volumes.reduce((a, b) => a + b, 0) / volumes.length),
      } satisfies Instrument;
    });
  return new ReplayHistory(byCode, addedStocks, startAt);
}

/** The replayed instant `t` as its date in a zone `offsetMinutes` from UTC: what the app's notice names. */
export function replayDate(t: number, offsetMinutes: number): string {
  return new Date(t + offsetMinutes * MINUTE_MS).toISOString().slice(0, 10);
}

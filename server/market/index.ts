/**
 * The market area's one door (CONVENTIONS.md "A folder per area, a door per folder"): the simulated
 * exchange, its clock, its catalogue, and the calendar and seeded-random helpers other areas build on.
 * Other areas import the market from here, not from its modules.
 */
export {
  MarketService,
  QUOTE_SORTS,
  MINUTE_HISTORY_DAYS,
  type MarketOptions,
  type QuoteSort,
} from './market-service';
export type { Tradable } from './instrument-catalogue';
export { systemClock, FixedClock, type Clock } from './clock';
export { FileClock } from './file-clock';
export {
  loadCatalogue,
  nameIn,
  nameMatches,
  type Board,
  type LocalNames,
  type FuturesDef,
  type IndexDef,
  type Instrument,
  type TickRule,
} from './catalogue';
export { roundToTick, tickFor, tickDecimals } from './ticks';
export { hashSeed, mixSeed, mulberry32, SeededRandom } from './prng';
export {
  DAY_MS,
  MINUTE_MS,
  REAL_HOURS,
  dateOfDay,
  dayCloseTime,
  dayOfDate,
  hoursFor,
  isTradingDay,
  localDay,
  localMinuteToUtc,
  nextTradingDay,
  nextTradingDayOpen,
  previousTradingDay,
  sessionMinutes,
  sessionPosition,
  tzOffsetMinutes,
  type MarketHours,
  type SessionPosition,
} from './sessions';
export { localizeNames, localizedNamesPlugin } from './localized-names';
export { futuresMarketPlugin } from './routes/futures';
export { indexMarketPlugin } from './routes/indexes';
export { marketPlugin } from './routes/stocks';
export { streamPlugin } from './routes/stream';
export { createTickPublisher, type TickPublisher } from './tick-publisher';
export {
  importHistory,
  parseNameOption,
  readDayBars,
  readMinuteBars,
  readNamesCsv,
  type GivenName,
  type HistoryDayBar,
  type HistoryFileSummary,
  type HistoryMinuteBar,
  type HistoryProblem,
  loadReplayHistory,
  readReplayPoint,
  replayDate,
  replayedAt,
  ReplayClock,
  ReplayHistory,
  setReplayPaused,
  startReplay,
  type ReplayChange,
  type ReplayPoint,
} from './history';

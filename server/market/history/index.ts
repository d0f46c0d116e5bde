/**
 * Real history loaded from CSV files, to replay instead of the simulation: the import (checks, then one
 * transaction per file) and the reads of one instrument's bars by time range.
 */
export {
  importHistory,
  type HistoryFileSummary,
  type HistoryFileText,
  type HistoryImportResult,
} from './import';
export { parseNameOption, readNamesCsv, type GivenName } from './instruments';
export type { HistoryProblem } from './csv';
export { readDayBars, readMinuteBars } from './store';
export type { HistoryDayBar, HistoryMinuteBar } from './validate';
export { ReplayClock, replayedAt, type ReplayPoint } from './replay-clock';
export { loadReplayHistory, replayDate, ReplayHistory } from './replay-history';
export { readReplayPoint, setReplayPaused, startReplay, type ReplayChange } from './replay-state';

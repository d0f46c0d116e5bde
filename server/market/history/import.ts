/**
 * Importing real history from CSV files: every file is read and every bar checked first (csv.ts,
 * instruments.ts, validate.ts); one problem anywhere and nothing is written. Otherwise each file is
 * written in its own transaction (store.ts).
 */
import type { Station } from '../../platform';
import { dateOfDay, dayOfDate } from '../sessions';
import { readHistoryCsv, type CsvFile, type HistoryProblem } from './csv';
import { resolveSubject, type GivenName, type HistorySubject } from './instruments';
import { storedCloseBefore, storedInstruments, writeHistory } from './store';
import { checkDayBars, checkMinuteBars, type HistoryDayBar, type HistoryMinuteBar } from './validate';

export interface HistoryFileText {
  file: string;
  text: string;
}

/** What one file brought in. */
export interface HistoryFileSummary {
  file: string;
  codes: string[];
  dayBars: number;
  minuteBars: number;
  /** The first and last trading day of its bars (YYYY-MM-DD). */
  from: string;
  to: string;
}

export type HistoryImportResult =
  { imported: false; problems: HistoryProblem[] } | { imported: true; files: HistoryFileSummary[] };

type HistoryStation = Pick<Station, 'db' | 'market' | 'clock'>;

/** Each code's subject; a code that cannot be told is a problem at its first line. */
async function subjectsOf(
  station: HistoryStation,
  files: readonly CsvFile[],
  names: ReadonlyMap<string, GivenName>,
  problems: HistoryProblem[],
): Promise<Map<string, HistorySubject>> {
  const firstSeen = new Map<string, { file: string; line: number }>();
  for (const { file, bars } of files)
    for (const bar of bars) if (!firstSeen.has(bar.code)) firstSeen.set(bar.code, { file, line: bar.line });
  const stored = await storedInstruments(station.db, [...firstSeen.keys()]);
  const subjects = new Map<string, HistorySubject>();
  for (const [code, at] of firstSeen) {
    const subject = resolveSubject(station.market, code, names, stored);
    if (typeof subject === 'string') problems.push({ ...at, message: subject });
    else subjects.set(code, subject);
  }
  return subjects;
}

/** Every day bar's close in the files, by code: where a file's first bar of a code finds its previous close. */
type ClosesByCode = Map<string, { file: CsvFile; day: number; close: number }[]>;

function closesByCode(files: readonly CsvFile[]): ClosesByCode {
  const closes: ClosesByCode = new Map();
  for (const file of files) {
    for (const bar of file.bars) {
      if (bar.minute !== null) continue;
      let list = closes.get(bar.code);
      if (!list) closes.set(bar.code, (list = []));
      list.push({ file, day: dayOfDate(bar.date), close: bar.close });
    }
  }
  return closes;
}

/**
 * The close each code's first day bar in `file` is limited from: the latest day bar before it, among the
 * other files of this import, else among those stored.
 */
async function priorClosesOf(
  station: HistoryStation,
  file: CsvFile,
  closes: ClosesByCode,
): Promise<Map<string, number>> {
  const first = new Map<string, number>();
  for (const bar of file.bars) {
    if (bar.minute !== null || first.has(bar.code)) continue;
    first.set(bar.code, dayOfDate(bar.date));
  }
  const prior = new Map<string, number>();
  for (const [code, day] of first) {
    let best: { day: number; close: number } | undefined;
    for (const other of closes.get(code) ?? []) {
      if (other.file !== file && other.day < day && (!best || other.day > best.day)) best = other;
    }
    const close = best ? best.close : await storedCloseBefore(station.db, code, day);
    if (close !== undefined) prior.set(code, close);
  }
  return prior;
}

function summaryOf(file: string, days: readonly HistoryDayBar[], minutes: readonly HistoryMinuteBar[]) {
  const codes = [...new Set([...days, ...minutes].map((bar) => bar.code))].sort();
  let first = Infinity;
  let last = -Infinity;
  for (const bar of [...days, ...minutes]) {
    first = Math.min(first, bar.day);
    last = Math.max(last, bar.day);
  }
  return {
    file,
    codes,
    dayBars: days.length,
    minuteBars: minutes.length,
    from: dateOfDay(first),
    to: dateOfDay(last),
  };
}

/** Checks every file, then (all good) writes each file in one transaction. */
export async function importHistory(
  station: HistoryStation,
  texts: readonly HistoryFileText[],
  names: ReadonlyMap<string, GivenName>,
): Promise<HistoryImportResult> {
  const files = texts.map(({ file, text }) => readHistoryCsv(file, text));
  const problems = files.flatMap((f) => f.problems);
  const subjects = await subjectsOf(station, files, names, problems);
  const dayRows: HistoryDayBar[][] = [];
  const byDay = new Map<string, Map<number, HistoryDayBar>>();
  const closes = closesByCode(files);
  for (const file of files) {
    const priorCloses = await priorClosesOf(station, file, closes);
    const rows = checkDayBars(file.file, file.bars, subjects, priorCloses, problems);
    dayRows.push(rows);
    for (const row of rows) {
      let days = byDay.get(row.code);
      if (!days) byDay.set(row.code, (days = new Map()));
      days.set(row.day, row);
    }
  }
  const minuteRows = files.map((file) => checkMinuteBars(file.file, file.bars, subjects, byDay, problems));
  if (problems.length > 0) {
    const order = new Map(files.map((f, i) => [f.file, i]));
    problems.sort((a, b) => order.get(a.file)! - order.get(b.file)! || a.line - b.line);
    return { imported: false, problems };
  }
  const summaries: HistoryFileSummary[] = [];
  for (const [i, file] of files.entries()) {
    const days = dayRows[i]!;
    const minutes = minuteRows[i]!;
    const summary = summaryOf(file.file, days, minutes);
    const instruments = summary.codes.flatMap((code) => subjects.get(code)?.added ?? []);
    await writeHistory(station.db, { instruments, dayBars: days, minuteBars: minutes }, station.clock.now());
    summaries.push(summary);
  }
  return { imported: true, files: summaries };
}

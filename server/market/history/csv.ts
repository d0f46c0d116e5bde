/**
 * Reading a history CSV file into bars, before any rule of the market is checked (validate.ts does that).
 * Two layouts, told apart by the header (case-insensitive; a byte order mark and CRLF line ends are fine):
 * - `code,time,open,high,low,close,volume`: several codes; `time` is `YYYY-MM-DD` for a day bar or
 *   `YYYY-MM-DD HH:MM` for a minute bar (the minute's start), in the exchange's local time;
 * - `date,open,high,low,close,volume` (an `Adj Close` column may be there too, and is ignored): one code's
 *   day bars, the code being the file name up to its first dot (`600519.SH.csv` → 600519).
 */
import path from 'node:path';

/** A problem of an import, shown to the operator as `FILE:LINE: message`. */
export interface HistoryProblem {
  file: string;
  /** 1-based line of the file; 0 when the problem is the file as a whole. */
  line: number;
  message: string;
}

/** One bar as a file gives it: the local date, and for a minute bar the minute of the day it starts at. */
export interface CsvBar {
  line: number;
  code: string;
  date: string;
  /** Minutes from local midnight of `date` (a minute bar), or null (a day bar). */
  minute: number | null;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface CsvFile {
  file: string;
  bars: CsvBar[];
  problems: HistoryProblem[];
}

const PRICE_COLUMNS = ['open', 'high', 'low', 'close'] as const;
const CODED = ['code', 'time', ...PRICE_COLUMNS, 'volume'];
const DATED = ['date', ...PRICE_COLUMNS, 'volume'];
/** Columns a dated file may have beyond DATED, ignored. */
const IGNORED = ['adj close', 'adj_close', 'adjclose'];

/** Codes as the catalogue writes them (catalogue.ts): capital letters and digits. */
export const HISTORY_CODE = /^[A-Z0-9]{1,10}$/;

const DATE = /^(\d{4})-(\d\d)-(\d\d)$/;
const DATE_TIME = /^(\d{4}-\d\d-\d\d)[ T](\d\d):(\d\d)(?::00)?$/;
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** True when `date` is a real YYYY-MM-DD date. */
export function isCalendarDate(date: string): boolean {
  if (!DATE.test(date)) return false;
  const t = Date.parse(`${date}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === date;
}

/** A field without the quotes a spreadsheet may put around it. */
function unquote(field: string): string {
  const trimmed = field.trim();
  return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"')
    ? trimmed.slice(1, -1).replace(/""/g, '"').trim()
    : trimmed;
}

/** The lines of a text file: without a byte order mark, split at LF or CRLF. */
export function linesOf(text: string): string[] {
  return text.replace(/^\uFEFF/, '').split(/\r?\n/);
}

/** The code a dated file's name gives: the part before the first dot, upper-cased. */
export function codeOfFileName(file: string): string {
  return path.basename(file).split('.')[0]!.toUpperCase();
}

interface Layout {
  /** Column index of each field read. */
  columns: Record<string, number>;
  width: number;
  /** The code of every row of a dated file; null when each row names its code. */
  code: string | null;
}

/** The layout of a header line, or a problem explaining what was expected. */
function layoutOf(file: string, header: string): Layout | string {
  const names = header.split(',').map((n) => unquote(n).toLowerCase());
  const columns: Record<string, number> = {};
  names.forEach((name, i) => (columns[name] = i));
  const has = (wanted: readonly string[]) =>
    wanted.every((n) => n in columns) &&
    names.every((n) => wanted.includes(n) || IGNORED.includes(n)) &&
    new Set(names).size === names.length;
  if (has(CODED)) return { columns, width: names.length, code: null };
  if (has(DATED)) {
    const code = codeOfFileName(file);
    if (!HISTORY_CODE.test(code))
      return `the file name does not give a code (1-10 letters or digits before the first dot): ${code}`;
    return { columns, width: names.length, code };
  }
  return (
    `unknown header "${header.trim()}": expected code,time,open,high,low,close,volume ` +
    'or date,open,high,low,close,volume (an Adj Close column may be there too)'
  );
}

/** The number in a field, or a message. */
function numberOf(name: string, raw: string): number | string {
  const value = NUMBER.test(raw) ? Number(raw) : NaN;
  return Number.isFinite(value) ? value : `${name} is not a number: "${raw}"`;
}

/** The date and minute of a time field, or a message. */
function timeOf(raw: string, minutesAllowed: boolean): { date: string; minute: number | null } | string {
  if (isCalendarDate(raw)) return { date: raw, minute: null };
  const m = minutesAllowed ? DATE_TIME.exec(raw) : null;
  if (m && isCalendarDate(m[1]!) && Number(m[2]) < 24 && Number(m[3]) < 60)
    return { date: m[1]!, minute: Number(m[2]) * 60 + Number(m[3]) };
  return minutesAllowed
    ? `time is not YYYY-MM-DD or YYYY-MM-DD HH:MM: "${raw}"`
    : `date is not YYYY-MM-DD: "${raw}"`;
}

/** One data line as a bar, or its problem. */
function barOf(fields: string[], layout: Layout, line: number): CsvBar | string {
  if (fields.length !== layout.width) return `${fields.length} fields where the header has ${layout.width}`;
  const field = (name: string) => fields[layout.columns[name]!]!;
  const code = layout.code ?? field('code').toUpperCase();
  if (!HISTORY_CODE.test(code)) return `code is not 1-10 letters or digits: "${field('code')}"`;
  const time = timeOf(layout.code === null ? field('time') : field('date'), layout.code === null);
  if (typeof time === 'string') return time;
  const prices: number[] = [];
  for (const name of PRICE_COLUMNS) {
    const value = numberOf(name, field(name));
    if (typeof value === 'string') return value;
    prices.push(value);
  }
  const volume = numberOf('volume', field('volume'));
  if (typeof volume === 'string') return volume;
  if (!Number.isSafeInteger(volume) || volume < 0)
    return `volume is not a whole number of 0 or more: "${field('volume')}"`;
  const [open, high, low, close] = prices as [number, number, number, number];
  return { line, code, date: time.date, minute: time.minute, open, high, low, close, volume };
}

/** Reads a history file's text: its bars in file order, and the problems of lines that do not read. */
export function readHistoryCsv(file: string, text: string): CsvFile {
  const lines = linesOf(text);
  const bars: CsvBar[] = [];
  const problems: HistoryProblem[] = [];
  const headerAt = lines.findIndex((l) => l.trim() !== '');
  if (headerAt === -1) return { file, bars, problems: [{ file, line: 0, message: 'the file is empty' }] };
  const layout = layoutOf(file, lines[headerAt]!);
  if (typeof layout === 'string') {
    return { file, bars, problems: [{ file, line: headerAt + 1, message: layout }] };
  }
  for (let i = headerAt + 1; i < lines.length; i++) {
    if (lines[i]!.trim() === '') continue;
    const bar = barOf(lines[i]!.split(',').map(unquote), layout, i + 1);
    if (typeof bar === 'string') problems.push({ file, line: i + 1, message: bar });
    else bars.push(bar);
  }
  if (bars.length === 0 && problems.length === 0)
    problems.push({ file, line: headerAt + 1, message: 'no bars after the header' });
  return { file, bars, problems };
}

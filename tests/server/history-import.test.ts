/**
 * `npm run station -- import-history`, run as the operator runs it (a process on the station's database),
 * with CSV files this test writes: deterministic bars on the real calendars.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REAL_HOURS,
  dateOfDay,
  dayOfDate,
  isTradingDay,
  localMinuteToUtc,
  mulberry32,
  readDayBars,
  readMinuteBars,
  importHistory as importHistoryIn,
  DAY_MS,
  roundToTick,
  type MarketHours,
} from '../../server/market';
import type { FixedClock } from '../../server/market/clock';
import { dbTargets, startStation, type TestStation } from './helpers/station';

const run = promisify(execFile);

interface Bar {
  time: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

const cents = (x: number) => Math.round(x * 100) / 100;

/** `count` trading days from `from` on `hours`' calendar, each moving at most 4% from the last close. */
function dayBars(seed: number, from: string, count: number, start: number, hours: MarketHours): Bar[] {
  const random = mulberry32(seed);
  const bars: Bar[] = [];
  let previous = start;
  for (let day = dayOfDate(from); bars.length < count; day++) {
    if (!isTradingDay(day, hours)) continue;
    const open = cents(previous * (1 + (random() - 0.5) * 0.04));
    const close = cents(previous * (1 + (random() - 0.5) * 0.06));
    const high = cents(Math.min(Math.max(open, close) * (1 + random() * 0.01), previous * 1.09));
    const low = cents(Math.max(Math.min(open, close) * (1 - random() * 0.01), previous * 0.91));
    bars.push({ time: dateOfDay(day), open, high, low, close, volume: 1000 + Math.floor(random() * 9000) });
    previous = close;
  }
  return bars;
}

const HHMM = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/** A Shanghai day's 240 minute bars (09:30-11:30, 13:00-15:00), each inside the day bar's range. */
function minuteBars(day: Bar): Bar[] {
  const minutes = [...Array(120).keys()]
    .map((i) => 570 + i)
    .concat([...Array(120).keys()].map((i) => 780 + i));
  return minutes.map((minute, i) => {
    const price = cents(day.low + ((day.high - day.low) * (i % 17)) / 16);
    return {
      time: `${day.time} ${HHMM(minute)}`,
      open: price,
      high: price,
      low: price,
      close: price,
      volume: 5,
    };
  });
}

const row = (b: Bar) => `${b.open},${b.high},${b.low},${b.close}`;
const codedCsv = (rows: [string, Bar][]) =>
  [
    'code,time,open,high,low,close,volume',
    ...rows.map(([code, b]) => `${code},${b.time},${row(b)},${b.volume}`),
  ].join('\n') + '\n';
/** The layout of common exports: Date,Open,High,Low,Close,Adj Close,Volume, with a BOM and CRLF. */
const datedCsv = (bars: Bar[]) =>
  '\uFEFF' +
  [
    'Date,Open,High,Low,Close,Adj Close,Volume',
    ...bars.map((b) => `${b.time},${row(b)},${b.close},${b.volume}`),
  ].join('\r\n');

const A = REAL_HOURS.a;
const US = REAL_HOURS.us;

describe.each(dbTargets)('import-history (%s)', (db) => {
  let station: TestStation<FixedClock>;
  const dir = mkdtempSync(path.join(tmpdir(), 'paperdesk-history-'));
  const file = (name: string, text: string) => {
    const at = path.join(dir, name);
    writeFileSync(at, text);
    return at;
  };
  const importHistory = (...args: string[]) =>
    run('npx', ['tsx', 'server/cli/main.ts', 'import-history', ...args], {
      env: {
        ...process.env,
        DATA_DIR: station.config.dataDir,
        DATABASE_URL: station.config.databaseUrl ?? '',
        LOG_LEVEL: 'silent',
      },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
  const count = async (
    table: 'history_day_bars' | 'history_minute_bars' | 'history_instruments',
    code?: string,
  ) => {
    // Each of the three has a code column, which is all this reads.
    let query = station.app.db
      .selectFrom(table as 'history_day_bars')
      .select((eb) => eb.fn.countAll<number>().as('n'));
    if (code !== undefined) query = query.where('code', '=', code);
    return Number((await query.executeTakeFirstOrThrow()).n);
  };
  const counts = async () => ({
    days: await count('history_day_bars'),
    minutes: await count('history_minute_bars'),
    instruments: await count('history_instruments'),
  });

  // A catalogue A-share in the exported layout; two codes outside the catalogue (a Shanghai main-board one
  // named on the command line, a US one in a names file) and a catalogue US stock in the coded layout.
  const moutai = dayBars(1, '2025-01-02', 200, 1500, A);
  const outside = dayBars(2, '2025-01-02', 120, 8, A);
  const zzzz = dayBars(3, '2025-01-02', 60, 42, US);
  const apple = dayBars(4, '2025-01-02', 60, 190, US);
  const minutesOf = outside.slice(10, 12).flatMap(minuteBars);

  beforeAll(async () => {
    station = await startStation({ db });
  });
  afterAll(async () => {
    await station?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports both layouts, codes outside the catalogue with their names, and replays read them by range', async () => {
    const dated = file('600519.SH.csv', datedCsv(moutai));
    const coded = file(
      'mixed.csv',
      codedCsv([
        ...outside.map((b): [string, Bar] => ['600100', b]),
        ...minutesOf.map((b): [string, Bar] => ['600100', b]),
        ...zzzz.map((b): [string, Bar] => ['ZZZZ', b]),
        ...apple.map((b): [string, Bar] => ['AAPL', b]),
      ]),
    );
    const names = file('names.csv', 'code,name,market\nZZZZ,Zed Holdings,us\n');
    const result = await importHistory(dated, coded, '--name', '600100=同方股份', '--names', names);
    expect(result).toMatchObject({ code: 0 });
    expect(result.stdout).toContain(
      `${dated}: 1 code(s) (600519), 200 day bar(s), 0 minute bar(s), 2025-01-02 to`,
    );
    expect(result.stdout).toContain(
      `${coded}: 3 code(s) (600100 AAPL ZZZZ), 240 day bar(s), 480 minute bar(s)`,
    );
    expect(result.stdout).toContain(
      'import-history: imported 2 file(s): 4 code(s), 440 day bar(s), 480 minute bar(s)',
    );
    expect(await counts()).toEqual({ days: 440, minutes: 480, instruments: 2 });
    expect(await count('history_day_bars', '600519')).toBe(200);
    const added = await station.app.db
      .selectFrom('history_instruments')
      .selectAll()
      .orderBy('code')
      .execute();
    expect(added.map(({ updated_at: _at, ...r }) => r)).toEqual([
      { code: '600100', market: 'a', name: '同方股份', currency: 'CNY' },
      { code: 'ZZZZ', market: 'us', name: 'Zed Holdings', currency: 'USD' },
    ]);
    // Day bars by local trading day; minute bars at their start, in Shanghai time (UTC+8).
    const from = dayOfDate(outside[10]!.time);
    const to = dayOfDate(outside[11]!.time);
    const read = await readDayBars(station.app.db, '600100', from, to);
    expect(read.map((b) => b.day)).toEqual([from, to]);
    expect(read[0]).toMatchObject({ code: '600100', open: outside[10]!.open, close: outside[10]!.close });
    const open = localMinuteToUtc(from, 570, 'Asia/Shanghai');
    expect(open).toBe(Date.parse(`${outside[10]!.time}T01:30:00Z`));
    const morning = await readMinuteBars(station.app.db, '600100', open, open + 120 * 60_000);
    expect(morning).toHaveLength(120);
    expect(morning.every((b, i) => b.t === open + i * 60_000 && b.day === from)).toBe(true);
  }, 120_000);

  it('imports the same files again without doubling anything, and replaces a changed bar', async () => {
    const before = await counts();
    const changed = moutai.map((b, i) => (i === 5 ? { ...b, volume: b.volume + 1 } : b));
    const again = await importHistory(file('600519.csv', datedCsv(changed)));
    expect(again).toMatchObject({ code: 0 });
    expect(await counts()).toEqual(before);
    const day = dayOfDate(moutai[5]!.time);
    expect((await readDayBars(station.app.db, '600519', day, day))[0]?.volume).toBe(moutai[5]!.volume + 1);
  }, 60_000);

  it('refuses a bad file with its lines, importing nothing, also when it is the second of two', async () => {
    const before = await counts();
    const good = file('600200.csv', datedCsv(dayBars(5, '2025-03-03', 30, 20, A)));
    const bars = dayBars(6, '2025-03-03', 12, 10, A);
    const lines = bars.map((b) => `600300,${b.time},${row(b)},${b.volume}`);
    lines[2] = `600300,${bars[2]!.time},${bars[2]!.open},${bars[2]!.close - 1},${bars[2]!.low},${bars[2]!.close},1`;
    lines[5] = `600300,${bars[5]!.time},1O.5,11,10,10.5,100`;
    lines[7] = `600300,${bars[6]!.time},${row(bars[6]!)},100`;
    lines[9] = `600300,${bars[9]!.time},${row(bars[9]!)},-3`;
    lines.push(`600300,${bars[11]!.time} 11:30,10,10,10,10,1`, `600300,2025-03-08,10,10,10,10,1`);
    const bad = file('bad.csv', ['code,time,open,high,low,close,volume', ...lines].join('\n'));
    const result = await importHistory(good, bad, '--name', '600200=甲', '--name', '600300=乙');
    expect(result.code).toBe(1);
    const problems = result.stdout.split('\n').filter((l) => l.startsWith(bad));
    expect(problems).toEqual([
      `${bad}:4: high ${bars[2]!.close - 1} is below the open or the close (${bars[2]!.open}, ${bars[2]!.close})`,
      `${bad}:7: open is not a number: "1O.5"`,
      `${bad}:9: 600300 ${bars[6]!.time} is not after its day bar of line 8`,
      `${bad}:11: volume is not a whole number of 0 or more: "-3"`,
      `${bad}:14: ${bars[11]!.time} 11:30 is not inside the A-share sessions (a minute bar is labelled by the minute it starts)`,
      `${bad}:15: 2025-03-08 is not a trading day on the A-share calendar`,
    ]);
    expect(result.stdout).toContain('import-history: nothing imported (6 problem(s))');
    expect(await counts()).toEqual(before);
    expect(await count('history_day_bars', '600200')).toBe(0);
  }, 60_000);

  it('refuses a code outside the catalogue without a name, and a header it does not know', async () => {
    const before = await counts();
    const [unnamed, header] = await Promise.all([
      importHistory(file('600400.csv', datedCsv(dayBars(7, '2025-03-03', 5, 10, A)))),
      importHistory(file('odd.csv', 'day,price\n2025-03-03,10\n')),
    ]);
    expect(unnamed).toMatchObject({ code: 1 });
    expect(unnamed.stdout).toContain(
      `600400.csv:2: 600400 is not in the catalogue: give its name with --name 600400=NAME or in a --names file`,
    );
    expect(header).toMatchObject({
      code: 1,
      stdout: expect.stringContaining('odd.csv:1: unknown header "day,price"'),
    });
    expect(await counts()).toEqual(before);
  }, 60_000);

  it('holds a main-board A-share to its 10% daily limit, but not a US stock', async () => {
    const before = await counts();
    const steady = dayBars(8, '2025-04-01', 10, 50, A);
    const jump = (bars: Bar[]) => {
      const prev = bars[bars.length - 1]!.close;
      const up = cents(prev * 1.15);
      return [...bars, { time: '', open: prev, high: up, low: prev, close: up, volume: 100 }];
    };
    const next = (hours: MarketHours, bars: Bar[]) => {
      let day = dayOfDate(bars[bars.length - 2]!.time) + 1;
      while (!isTradingDay(day, hours)) day++;
      return dateOfDay(day);
    };
    const aShare = jump(steady);
    aShare[aShare.length - 1]!.time = next(A, aShare);
    const usSteady = dayBars(8, '2025-04-01', 10, 50, US);
    const usStock = jump(usSteady);
    usStock[usStock.length - 1]!.time = next(US, usStock);
    const refused = await importHistory(file('600500.csv', datedCsv(aShare)), '--name', '600500=中化国际');
    expect(refused.code).toBe(1);
    const prev = steady[steady.length - 1]!.close;
    expect(refused.stdout).toContain(
      `600500.csv:12: high ${cents(prev * 1.15)} is above ${roundToTick(prev * 1.1, 0.01)}, the 10% limit of A-share 600500 from the previous close ${prev}`,
    );
    expect(await counts()).toEqual(before);
    const allowed = await importHistory(file('YYYY.csv', datedCsv(usStock)), '--name', 'YYYY=Why Corp');
    expect(allowed).toMatchObject({ code: 0 });
    expect(await count('history_day_bars', 'YYYY')).toBe(11);
  }, 60_000);

  it('prints the first 20 problems and counts the rest; a minute stays inside its day bar', async () => {
    const before = await counts();
    const [day] = dayBars(9, '2025-05-06', 1, 30, A);
    const rows = [
      `600600,${day!.time},${row(day!)},100`,
      `600600,${day!.time} 09:30,${day!.high},${day!.high + 0.5},${day!.low},${day!.high},1`,
      ...[...Array(25).keys()].map((i) => `600600,${day!.time} 10:${String(i + 10)},30,30,30,30,x`),
    ];
    const bad = file('many.csv', ['code,time,open,high,low,close,volume', ...rows].join('\n'));
    const result = await importHistory(bad, '--name', '600600=青岛啤酒');
    expect(result.code).toBe(1);
    const printed = result.stdout.split('\n').filter((l) => l.startsWith(`${bad}:`));
    expect(printed).toHaveLength(20);
    expect(printed[0]).toBe(`${bad}:3: high ${day!.high + 0.5} is above the day's high ${day!.high}`);
    expect(printed[1]).toBe(`${bad}:4: volume is not a number: "x"`);
    expect(result.stdout).toContain('… and 6 more problem(s)');
    expect(result.stdout).toContain('nothing imported (26 problem(s))');
    expect(await counts()).toEqual(before);
  }, 60_000);

  it('puts a night-session minute in the trading day it opens, and refuses one after the night session', async () => {
    // Gold (AU0) trades 21:00-02:30 at night: Friday night and the small hours of Saturday open Monday.
    const bars = ['2025-03-07 21:00', '2025-03-08 01:00', '2025-03-08 03:00'].map(
      (time, i) => `AU0,${time},700,700,700,700,${i + 1}`,
    );
    const text = ['code,time,open,high,low,close,volume', ...bars].join('\n');
    const refused = await importHistoryIn(station.app.station, [{ file: 'gold.csv', text }], new Map());
    expect(refused).toEqual({
      imported: false,
      problems: [
        {
          file: 'gold.csv',
          line: 4,
          message:
            '2025-03-08 03:00 is not inside the futures sessions (a minute bar is labelled by the minute it starts)',
        },
      ],
    });
    const good = [bars[0], bars[1]].join('\n');
    const done = await importHistoryIn(
      station.app.station,
      [{ file: 'gold.csv', text: `code,time,open,high,low,close,volume\n${good}` }],
      new Map(),
    );
    expect(done).toMatchObject({
      imported: true,
      files: [{ minuteBars: 2, from: '2025-03-10', to: '2025-03-10' }],
    });
    const friday = Date.parse('2025-03-07T13:00:00Z');
    const read = await readMinuteBars(station.app.db, 'AU0', friday, friday + DAY_MS);
    expect(read.map((b) => [b.t, dateOfDay(b.day)])).toEqual([
      [friday, '2025-03-10'],
      [friday + 4 * 3_600_000, '2025-03-10'],
    ]);
  }, 60_000);
});

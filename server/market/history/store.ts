/**
 * The imported history in the database (migration 0018-history): writing a file's bars in one transaction
 * (a bar already there is replaced, so importing the same file again changes nothing), and reading one
 * instrument's bars over a range, in time order, as a replay does.
 */
import type { Db, Tx } from '../../platform';
import type { AddedInstrument } from './instruments';
import type { HistoryDayBar, HistoryMinuteBar } from './validate';

/** Rows per INSERT: 8 columns each stays far below SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK = 1000;

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK));
  return out;
}

/** The instruments earlier imports added, by code. */
export async function storedInstruments(
  db: Db,
  codes: readonly string[],
): Promise<Map<string, AddedInstrument>> {
  if (codes.length === 0) return new Map();
  const rows = await db
    .selectFrom('history_instruments')
    .select(['code', 'market', 'name', 'currency'])
    .where('code', 'in', [...codes])
    .execute();
  return new Map(rows.map((row) => [row.code, row]));
}

/** The close of `code`'s last stored day bar before `day`, if any. */
export async function storedCloseBefore(db: Db, code: string, day: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('history_day_bars')
    .select('close')
    .where('code', '=', code)
    .where('day', '<', day)
    .orderBy('day', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.close;
}

async function upsertInstruments(tx: Tx, instruments: readonly AddedInstrument[], now: number) {
  for (const instrument of instruments) {
    const row = { ...instrument, updated_at: now };
    await tx
      .insertInto('history_instruments')
      .values(row)
      .onConflict((oc) =>
        oc
          .column('code')
          .doUpdateSet({ market: row.market, name: row.name, currency: row.currency, updated_at: now }),
      )
      .execute();
  }
}

/** What one file writes: its bars, and the instruments outside the catalogue they belong to. */
export interface HistoryWrite {
  instruments: readonly AddedInstrument[];
  dayBars: readonly HistoryDayBar[];
  minuteBars: readonly HistoryMinuteBar[];
}

/** Writes one file's bars in one transaction, replacing bars of the same code and time. */
export async function writeHistory(db: Db, write: HistoryWrite, now: number): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await upsertInstruments(tx, write.instruments, now);
    for (const rows of chunks(write.dayBars)) {
      await tx
        .insertInto('history_day_bars')
        .values(rows)
        .onConflict((oc) =>
          oc.columns(['code', 'day']).doUpdateSet((eb) => ({
            open: eb.ref('excluded.open'),
            high: eb.ref('excluded.high'),
            low: eb.ref('excluded.low'),
            close: eb.ref('excluded.close'),
            volume: eb.ref('excluded.volume'),
          })),
        )
        .execute();
    }
    for (const rows of chunks(write.minuteBars)) {
      await tx
        .insertInto('history_minute_bars')
        .values(rows)
        .onConflict((oc) =>
          oc.columns(['code', 't']).doUpdateSet((eb) => ({
            day: eb.ref('excluded.day'),
            open: eb.ref('excluded.open'),
            high: eb.ref('excluded.high'),
            low: eb.ref('excluded.low'),
            close: eb.ref('excluded.close'),
            volume: eb.ref('excluded.volume'),
          })),
        )
        .execute();
    }
  });
}

/** `code`'s day bars from day `fromDay` to `toDay` (local day numbers, both included), oldest first. */
export function readDayBars(db: Db, code: string, fromDay: number, toDay: number): Promise<HistoryDayBar[]> {
  return db
    .selectFrom('history_day_bars')
    .select(['code', 'day', 'open', 'high', 'low', 'close', 'volume'])
    .where('code', '=', code)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .orderBy('day')
    .execute();
}

/** `code`'s minute bars starting in [from, to) (epoch ms), oldest first. */
export function readMinuteBars(db: Db, code: string, from: number, to: number): Promise<HistoryMinuteBar[]> {
  return db
    .selectFrom('history_minute_bars')
    .select(['code', 't', 'day', 'open', 'high', 'low', 'close', 'volume'])
    .where('code', '=', code)
    .where('t', '>=', from)
    .where('t', '<', to)
    .orderBy('t')
    .execute();
}

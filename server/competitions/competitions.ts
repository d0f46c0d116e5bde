/**
 * Competitions: create, edit (creator only, until the start), the public list, the detail, and the user's
 * own (mine.do). Joining and the competition accounts are in entry.ts; the ranking in ranking.ts.
 */
import { randomBytes } from 'node:crypto';
import { toMinor } from '../../src/shared/money';
import type { Currency, Market, Page } from '../../src/shared/api/types';
import type {
  Competition,
  CompetitionFields,
  CompetitionState,
  MyCompetition,
} from '../../src/shared/api/competitions';
import {
  AppError,
  isUniqueViolation,
  runOnce,
  storedAnswer,
  type CompetitionRow,
  type DbOrTx,
  type Station,
} from '../platform';
import { assertTerms, sharedStartingCash, toCompetition, type CompetitionTerms } from './competition-rules';
import { standingOf } from './ranking';

/** The starting cash per currency, minor units: as given, or one amount in yuan shared (cashInCny). */
function startingCashOfFields(
  fields: CompetitionFields,
  markets: readonly Market[],
  cnyPer: Record<Currency, number>,
): Record<Currency, number> {
  if (!fields.cashInCny) {
    return {
      CNY: toMinor(fields.startingCash),
      HKD: toMinor(fields.startingCashHkd ?? 0),
      USD: toMinor(fields.startingCashUsd ?? 0),
    };
  }
  // One amount, or amounts per currency: both at once would leave it unclear which one is meant.
  const extra = (['startingCashHkd', 'startingCashUsd'] as const).find((f) => (fields[f] ?? 0) !== 0);
  if (extra !== undefined) {
    throw new AppError('VALIDATION', {
      fields: { [extra]: 'invalid' },
      msgKey: 'COMPETITION_CASH_ONE_AMOUNT',
    });
  }
  return sharedStartingCash(toMinor(fields.startingCash), markets, cnyPer);
}

/** The request's fields as terms in minor units (cashInCny: converted at the mid rates of `now`). */
export function termsOf(station: Station, fields: CompetitionFields, now: number): CompetitionTerms {
  // The schema's pattern admits only the markets' names.
  const markets = [...new Set(fields.markets.split(',') as Market[])];
  return {
    name: fields.name.trim(),
    description: (fields.description ?? '').trim(),
    startAt: fields.startAt,
    endAt: fields.endAt,
    startingCash: startingCashOfFields(fields, markets, station.market.exchangeRates(now).cnyPer),
    markets,
    maxLeverage: fields.maxLeverage,
    allowShort: fields.allowShort,
    visibility: fields.visibility,
    maxEntrants: fields.maxEntrants ?? null,
  };
}

function columnsOf(terms: CompetitionTerms) {
  return {
    name: terms.name,
    description: terms.description,
    start_at: terms.startAt,
    end_at: terms.endAt,
    starting_cny: terms.startingCash.CNY,
    starting_hkd: terms.startingCash.HKD,
    starting_usd: terms.startingCash.USD,
    markets: terms.markets.join(','),
    max_leverage: terms.maxLeverage,
    allow_short: terms.allowShort ? 1 : 0,
    visibility: terms.visibility,
    max_entrants: terms.maxEntrants,
  };
}

/** A code to join a private competition with: 8 letters and digits, no look-alikes (0/O, 1/I). */
function newJoinCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return [...randomBytes(8)].map((b) => alphabet[b % alphabet.length]).join('');
}

export async function competitionRow(db: DbOrTx, id: number): Promise<CompetitionRow> {
  const row = await db.selectFrom('competitions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

/** create.do: any logged-in user; a private competition gets a join code. */
export async function createCompetition(
  station: Station,
  userId: number,
  fields: CompetitionFields,
): Promise<Competition> {
  const call = 'competitionCreate';
  const earlier = await storedAnswer<Competition>(station.db, userId, fields.requestId, call);
  if (earlier !== undefined) return earlier;
  const now = station.clock.now();
  const terms = termsOf(station, fields, now);
  assertTerms(terms, now);
  // A code already taken (1 in 32^8 per competition) is drawn again.
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await runOnce(station.db, { userId, requestId: fields.requestId, call, now }, async (trx) => {
        const row = await trx
          .insertInto('competitions')
          .values({
            ...columnsOf(terms),
            creator_id: userId,
            join_code: terms.visibility === 'private' ? newJoinCode() : null,
            created_at: now,
            updated_at: now,
            frozen_at: null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return toCompetition(row, now, userId);
      });
    } catch (error) {
      if (attempt < 3 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

/** edit.do: the creator only, while the competition has not started; the same fields as create. */
export async function editCompetition(
  station: Station,
  userId: number,
  fields: CompetitionFields & { id: number },
): Promise<Competition> {
  const call = 'competitionEdit';
  const earlier = await storedAnswer<Competition>(station.db, userId, fields.requestId, call);
  if (earlier !== undefined) return earlier;
  const now = station.clock.now();
  return runOnce(station.db, { userId, requestId: fields.requestId, call, now }, async (trx) => {
    const row = await lockCompetition(trx, station, fields.id);
    if (row.creator_id !== userId) throw new AppError('NO_PERMISSION', { msgKey: 'COMPETITION_NOT_CREATOR' });
    if (now >= row.start_at) throw new AppError('ALREADY_DONE', { msgKey: 'COMPETITION_STARTED' });
    const terms = termsOf(station, fields, now);
    assertTerms(terms, now);
    if (terms.maxEntrants !== null && terms.maxEntrants < row.entrants) {
      throw new AppError('VALIDATION', { fields: { maxEntrants: 'invalid' } });
    }
    // Whoever joined already keeps the starting cash they were given; the terms apply to later joins.
    const joinCode = terms.visibility === 'private' ? (row.join_code ?? newJoinCode()) : null;
    const updated = await trx
      .updateTable('competitions')
      .set({ ...columnsOf(terms), join_code: joinCode, updated_at: now })
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toCompetition(updated, now, userId);
  });
}

/** The competition's row, locked on PostgreSQL for the rest of the transaction. */
export async function lockCompetition(trx: DbOrTx, station: Station, id: number): Promise<CompetitionRow> {
  const row = await trx
    .selectFrom('competitions')
    .selectAll()
    .where('id', '=', id)
    .$if(station.dialect === 'postgres', (q) => q.forUpdate())
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

/** list.do: public competitions, by state, the latest start first. */
export async function listCompetitions(
  station: Station,
  query: { state?: CompetitionState | undefined; pageNum: number; pageSize: number },
): Promise<Page<Competition>> {
  const now = station.clock.now();
  const base = station.db
    .selectFrom('competitions')
    .where('visibility', '=', 'public')
    .$if(query.state === 'upcoming', (q) => q.where('start_at', '>', now))
    .$if(query.state === 'running', (q) => q.where('start_at', '<=', now).where('end_at', '>', now))
    .$if(query.state === 'ended', (q) => q.where('end_at', '<=', now));
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('start_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize)
    .execute();
  return {
    list: rows.map((row) => toCompetition(row, now, null)),
    total: Number(total),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}

export async function competitionDetail(station: Station, id: number): Promise<Competition> {
  return toCompetition(await competitionRow(station.db, id), station.clock.now(), null);
}

/** mine.do: the competitions the user entered or created, the latest start first, with their standing. */
export async function myCompetitions(station: Station, userId: number): Promise<MyCompetition[]> {
  const now = station.clock.now();
  const rows = await station.db
    .selectFrom('competitions as c')
    .leftJoin('competition_entrants as e', (join) =>
      join.onRef('e.competition_id', '=', 'c.id').on('e.user_id', '=', userId),
    )
    .selectAll('c')
    .select(['e.nickname as nickname', 'e.user_id as entrant'])
    .where((eb) => eb.or([eb('c.creator_id', '=', userId), eb('e.user_id', '=', userId)]))
    .orderBy('c.start_at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(200)
    .execute();
  const mine: MyCompetition[] = [];
  for (const { nickname, entrant, ...row } of rows) {
    const joined = entrant !== null;
    const standing = joined ? await standingOf(station, row.id, userId) : null;
    mine.push({
      competition: toCompetition(row, now, userId),
      joined,
      isCreator: row.creator_id === userId,
      nickname: nickname ?? null,
      rank: standing?.rank ?? null,
      totalAssets: standing?.totalAssets ?? null,
      returnPct: standing?.returnPct ?? null,
    });
  }
  return mine;
}

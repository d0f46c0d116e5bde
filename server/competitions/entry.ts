/**
 * Entering a competition (join.do) and what an entrant has in it: a separate set of competition accounts,
 * ledger accounts like any other, one per currency, opened with the competition's starting cash by one
 * posting against the house's `competitions` account (so the ledger balances and ledger-check holds), and
 * the nickname shown on the leaderboard (default: the masked phone). The trading calls find an entrant's
 * account and the competition's limits here (tradingContext).
 */
import { maskPhone } from '../../src/shared/validation';
import type { Currency } from '../../src/shared/api/types';
import type { CompetitionAccount, MyCompetition } from '../../src/shared/api/competitions';
import {
  AppError,
  runOnce,
  stationText,
  storedAnswer,
  type AccountRow,
  type CompetitionRow,
  type DbOrTx,
  type Station,
  type Tx,
} from '../platform';
import { accountFigures, post, type OwnAccountRow } from '../ledger';
import {
  COMPETITION_CURRENCIES,
  assertRunning,
  checkedNickname,
  competitionState,
  limitsOf,
  startingCashOf,
  toCompetition,
  type CompetitionLimits,
} from './competition-rules';
import { competitionRow, lockCompetition } from './competitions';
import { standingOf } from './ranking';

export interface JoinRequest {
  id?: number | undefined;
  joinCode?: string | undefined;
  nickname?: string | undefined;
  requestId: string;
}

/** The competition a join names: by its code (a private one), or by id (a public one, or with its code). */
async function competitionToJoin(station: Station, request: JoinRequest): Promise<CompetitionRow> {
  const code = request.joinCode?.trim().toUpperCase();
  if (code) {
    const row = await station.db
      .selectFrom('competitions')
      .selectAll()
      .where('join_code', '=', code)
      .executeTakeFirst();
    if (!row || (request.id !== undefined && row.id !== request.id)) {
      throw new AppError('NOT_FOUND', { msgKey: 'COMPETITION_BAD_JOIN_CODE' });
    }
    return row;
  }
  if (request.id === undefined) {
    throw new AppError('VALIDATION', { fields: { id: 'required' }, msgKey: 'COMPETITION_ID_OR_CODE' });
  }
  const row = await competitionRow(station.db, request.id);
  if (row.visibility === 'private') throw new AppError('NO_PERMISSION', { msgKey: 'COMPETITION_PRIVATE' });
  return row;
}

async function maskedPhoneOf(db: DbOrTx, userId: number): Promise<string> {
  const user = await db
    .selectFrom('users')
    .select('phone')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return maskPhone(user.phone);
}

/** The entrant's accounts, one per currency, and their starting cash, in one balanced posting. */
async function openCompetitionAccounts(
  trx: Tx,
  station: Station,
  row: CompetitionRow,
  userId: number,
  now: number,
): Promise<number> {
  const cash = startingCashOf(row);
  const { cnyPer } = station.market.exchangeRates(now);
  const entries = [];
  const house = [];
  let baseCny = 0;
  for (const currency of COMPETITION_CURRENCIES) {
    const account = await trx
      .insertInto('accounts')
      .values({ user_id: userId, type: 'competition', currency, balance: 0, competition_id: row.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    const amount = cash[currency];
    if (amount <= 0) continue;
    baseCny += amount * cnyPer[currency];
    entries.push({
      accountId: account.id,
      userId,
      type: 'competition_funding' as const,
      amount,
      note: stationText('noteCompetitionFunding', { id: row.id }),
    });
    house.push({ house: 'competitions' as const, amount: -amount, currency });
  }
  await post(trx, { time: now, refType: 'competition', refId: row.id, entries, house });
  return Math.round(baseCny);
}

/** join.do: enters the user (until the end, up to the cap), opening the competition accounts. */
export async function joinCompetition(
  station: Station,
  userId: number,
  request: JoinRequest,
): Promise<MyCompetition> {
  const call = 'competitionJoin';
  const earlier = await storedAnswer<MyCompetition>(station.db, userId, request.requestId, call);
  if (earlier !== undefined) return earlier;
  const now = station.clock.now();
  const nickname =
    request.nickname !== undefined && request.nickname !== ''
      ? checkedNickname(request.nickname)
      : await maskedPhoneOf(station.db, userId);
  const target = await competitionToJoin(station, request);
  return runOnce(station.db, { userId, requestId: request.requestId, call, now }, async (trx) => {
    const row = await lockCompetition(trx, station, target.id);
    if (competitionState(row, now) === 'ended') {
      throw new AppError('COMPETITION_CLOSED', { msgKey: 'COMPETITION_ENDED' });
    }
    const already = await trx
      .selectFrom('competition_entrants')
      .select('user_id')
      .where('competition_id', '=', row.id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (already) throw new AppError('ALREADY_DONE', { msgKey: 'COMPETITION_ALREADY_JOINED' });
    if (row.max_entrants !== null && row.entrants >= row.max_entrants) throw new AppError('COMPETITION_FULL');
    const baseCny = await openCompetitionAccounts(trx, station, row, userId, now);
    await trx
      .insertInto('competition_entrants')
      .values({ competition_id: row.id, user_id: userId, nickname, base_cny: baseCny, joined_at: now })
      .execute();
    const updated = await trx
      .updateTable('competitions')
      .set((eb) => ({ entrants: eb('entrants', '+', 1) }))
      .where('id', '=', row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return {
      competition: toCompetition(updated, now, userId),
      joined: true,
      isCreator: row.creator_id === userId,
      nickname,
      rank: null,
      totalAssets: null,
      returnPct: null,
    };
  });
}

/** nickname.do: the name the entrant shows on the competition's leaderboard (from its next ranking). */
export async function setNickname(
  station: Station,
  userId: number,
  request: { id: number; nickname: string },
): Promise<MyCompetition> {
  const nickname = checkedNickname(request.nickname);
  const row = await competitionRow(station.db, request.id);
  const updated = await station.db
    .updateTable('competition_entrants')
    .set({ nickname })
    .where('competition_id', '=', row.id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) {
    throw new AppError('NO_PERMISSION', { msgKey: 'COMPETITION_NOT_JOINED' });
  }
  const standing = await standingOf(station, row.id, userId);
  return {
    competition: toCompetition(row, station.clock.now(), userId),
    joined: true,
    isCreator: row.creator_id === userId,
    nickname,
    rank: standing?.rank ?? null,
    totalAssets: standing?.totalAssets ?? null,
    returnPct: standing?.returnPct ?? null,
  };
}

/** Whether the user entered the competition; NO_PERMISSION (COMPETITION_NOT_JOINED) if not. */
async function assertEntrant(db: DbOrTx, competitionId: number, userId: number): Promise<void> {
  const entrant = await db
    .selectFrom('competition_entrants')
    .select('user_id')
    .where('competition_id', '=', competitionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!entrant) throw new AppError('NO_PERMISSION', { msgKey: 'COMPETITION_NOT_JOINED' });
}

/** accounts.do: the entrant's competition accounts valued now (CNY, HKD, USD). */
export async function competitionAccounts(
  station: Station,
  userId: number,
  competitionId: number,
): Promise<CompetitionAccount[]> {
  await competitionRow(station.db, competitionId);
  await assertEntrant(station.db, competitionId, userId);
  const accounts = await station.db
    .selectFrom('accounts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('competition_id', '=', competitionId)
    .execute();
  accounts.sort(
    (a, b) => COMPETITION_CURRENCIES.indexOf(a.currency) - COMPETITION_CURRENCIES.indexOf(b.currency),
  );
  const positions = await station.db
    .selectFrom('positions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('state', '=', 'open')
    .where(
      'account_id',
      'in',
      accounts.map((a) => a.id),
    )
    .execute();
  // The figures of any account (ledger/accounts.ts); only the type differs from the user's own accounts.
  return accountFigures(
    station,
    accounts as unknown as OwnAccountRow[],
    positions,
  ) as unknown as CompetitionAccount[];
}

/** What a trading call needs of the competition it names: its limits, checked entrant and running. */
export interface CompetitionTradingContext {
  competitionId: number;
  limits: CompetitionLimits;
}

/**
 * The competition a trading call names (competitionId), for the user at `now`: NOT_FOUND, not joined
 * (NO_PERMISSION) or not running (COMPETITION_CLOSED) refuse the call before it touches money.
 */
export async function tradingContext(
  station: Station,
  userId: number,
  competitionId: number,
  now: number,
): Promise<CompetitionTradingContext> {
  const row = await competitionRow(station.db, competitionId);
  await assertEntrant(station.db, competitionId, userId);
  assertRunning(row, now);
  return { competitionId, limits: limitsOf(row) };
}

/** The entrant's competition account in `currency`, locked on PostgreSQL for the transaction. */
export async function lockCompetitionAccount(
  trx: Tx,
  station: Station,
  competitionId: number,
  userId: number,
  currency: Currency,
): Promise<AccountRow> {
  const account = await trx
    .selectFrom('accounts')
    .selectAll()
    .where('competition_id', '=', competitionId)
    .where('user_id', '=', userId)
    .where('currency', '=', currency)
    .$if(station.dialect === 'postgres', (q) => q.forUpdate())
    .executeTakeFirst();
  if (!account) throw new AppError('NO_PERMISSION', { msgKey: 'COMPETITION_NOT_JOINED' });
  return account;
}

/** The ids of the entrant's accounts in the competition (for listing its positions and orders). */
export function competitionAccountIds(db: DbOrTx, userId: number, competitionId: number) {
  return db
    .selectFrom('accounts')
    .select('id')
    .where('user_id', '=', userId)
    .where('competition_id', '=', competitionId);
}

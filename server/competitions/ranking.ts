/**
 * The competitions' ranking: a job of the leader (server/jobs), each second, values every entrant of every
 * competition that has started and is not frozen, and stores the ranking as one snapshot row per
 * competition; leaderboard reads page that snapshot from a per-process copy, revalidated at most once a
 * second (at once on news of a newer one: snapshotStoredElsewhere), so a read costs no valuation and at
 * most one small query; the route keeps each page's bytes until the next snapshot. Each stored ranking
 * with a new time is told to the competition stream (ranking-events.ts).
 * - Total assets: the competition accounts' balances plus each open position's margin and price P&L (the
 *   account figures of server/ledger/views.ts), in yuan at the station's flash-exchange mid rates.
 * - A tie goes to whoever reached the figure first (reachedAt: kept while the figure does not change).
 * - From the end on, the positions are valued at the price at the end instant; that ranking is stored as
 *   frozen and never taken again.
 * - Daily equity points: when a snapshot of a new day is taken, the last one of the previous day is stored
 *   as that day's point for each entrant; the frozen ranking writes the last day's.
 */
import { performance } from 'node:perf_hooks';
import { toMajor } from '../../src/shared/money';
import { holdingValue, pricePnlOf } from '../../src/shared/pnl';
import type { Currency } from '../../src/shared/api/types';
import type { EquityPoint, Leaderboard } from '../../src/shared/api/competitions';
import { sql } from 'kysely';
import { AppError, tzOffsetMinutes, type CompetitionRow, type Station } from '../platform';
import { compareStandings, returnPct, toLeaderboardRow, type Standing } from './competition-rules';
import { rankingStored, type RankingEvent } from './ranking-events';

/** A snapshot as stored (JSON) and cached: standings in rank order. */
interface Snapshot {
  takenAt: number;
  frozen: boolean;
  standings: Standing[];
  /** userId → index in standings, built on first use. */
  index?: Map<number, number>;
}

/** How long a process serves its copy of a snapshot before looking for a newer one (ms, monotonic). */
const REVALIDATE_MS = 1000;

interface CachedSnapshot {
  snapshot: Snapshot | null;
  checkedAt: number;
}

/** Per station (a test builds several): the snapshots this process has read or taken. */
const caches = new WeakMap<Station, Map<number, CachedSnapshot>>();

function cacheOf(station: Station): Map<number, CachedSnapshot> {
  let cache = caches.get(station);
  if (!cache) {
    cache = new Map();
    caches.set(station, cache);
  }
  return cache;
}

/** The Shanghai calendar day of `t`, YYYY-MM-DD: the day of an equity point. */
export function shanghaiDay(t: number): string {
  return new Date(t + tzOffsetMinutes('Asia/Shanghai', t) * 60_000).toISOString().slice(0, 10);
}

/** A standing as stored: a tuple, a third the size of the object as JSON (10,000 of them each second). */
type StoredStanding = [number, string, number, number, number, number];

function toStored(s: Standing): StoredStanding {
  return [s.userId, s.nickname, s.totalCny, s.baseCny, s.reachedAt, s.joinedAt];
}

function fromStored([userId, nickname, totalCny, baseCny, reachedAt, joinedAt]: StoredStanding): Standing {
  return { userId, nickname, totalCny, baseCny, reachedAt, joinedAt };
}

function parseSnapshot(row: { taken_at: number; frozen: number; rows: string }): Snapshot {
  const stored = JSON.parse(row.rows) as StoredStanding[];
  return { takenAt: Number(row.taken_at), frozen: row.frozen === 1, standings: stored.map(fromStored) };
}

async function readStoredSnapshot(station: Station, competitionId: number): Promise<Snapshot | null> {
  const row = await station.db
    .selectFrom('competition_snapshots')
    .selectAll()
    .where('competition_id', '=', competitionId)
    .executeTakeFirst();
  return row ? parseSnapshot(row) : null;
}

/** The latest snapshot of the competition as this process knows it (revalidated at most once a second). */
export async function currentSnapshot(station: Station, competitionId: number): Promise<Snapshot | null> {
  const cache = cacheOf(station);
  const cached = cache.get(competitionId);
  const at = performance.now();
  if (cached && (cached.snapshot?.frozen || at - cached.checkedAt < REVALIDATE_MS)) return cached.snapshot;
  const head = await station.db
    .selectFrom('competition_snapshots')
    .select(['taken_at', 'frozen'])
    .where('competition_id', '=', competitionId)
    .executeTakeFirst();
  let snapshot = cached?.snapshot ?? null;
  if (head && (snapshot === null || snapshot.takenAt !== Number(head.taken_at) || head.frozen === 1)) {
    snapshot = await readStoredSnapshot(station, competitionId);
  }
  cache.set(competitionId, { snapshot, checkedAt: at });
  return snapshot;
}

/** An entrant as the ranking lists them. */
interface Entrant {
  userId: number;
  nickname: string;
  baseCny: number;
  joinedAt: number;
}

/**
 * Each entrant's total assets in yuan (minor units) at `at`, keyed by user: the competition accounts'
 * balances plus each open position's margin and price P&L. Three plain reads (the entrants, the accounts
 * holding cash, the open positions: each an index range, no join row per account and position) in one
 * transaction, so they see one moment (REPEATABLE READ on PostgreSQL; on SQLite it holds the connection).
 */
async function valuedEntrants(
  station: Station,
  competitionId: number,
  at: number,
): Promise<{ entrants: Entrant[]; totals: Map<number, number> }> {
  const { entrants, balances, positions } = await station.db.transaction().execute(async (trx) => {
    if (station.dialect === 'postgres') {
      await sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`.execute(trx);
    }
    const listed = await trx
      .selectFrom('competition_entrants')
      .select(['user_id', 'nickname', 'base_cny', 'joined_at'])
      .where('competition_id', '=', competitionId)
      .execute();
    const cash = await trx
      .selectFrom('accounts')
      .select(['user_id', 'currency', 'balance'])
      .where('competition_id', '=', competitionId)
      .where('balance', '<>', 0)
      .execute();
    const open = await trx
      .selectFrom('positions as p')
      .innerJoin('accounts as a', 'a.id', 'p.account_id')
      .select([
        'a.user_id as userId',
        'a.currency as currency',
        'p.code as code',
        'p.direction as direction',
        'p.shares as shares',
        'p.fx_rate as fxRate',
        'p.open_value as openValue',
        'p.margin as margin',
      ])
      .where('a.competition_id', '=', competitionId)
      .where('p.state', '=', 'open')
      .execute();
    return { entrants: listed, balances: cash, positions: open };
  });
  const { cnyPer } = station.market.exchangeRates(at);
  const prices = new Map<string, number | null>();
  const priceOf = (code: string): number | null => {
    let price = prices.get(code);
    if (price === undefined) {
      const found = station.market.findTradable(code);
      price = found ? station.market.quote(found.instrument, at).price : null;
      prices.set(code, price);
    }
    return price;
  };
  const totals = new Map<number, number>();
  const add = (userId: number, currency: Currency, minor: number) =>
    totals.set(userId, (totals.get(userId) ?? 0) + minor * cnyPer[currency]);
  for (const a of balances) add(Number(a.user_id), a.currency, Number(a.balance));
  for (const row of positions) {
    const openValue = Number(row.openValue);
    // An instrument no longer listed stays at its open value (as the account figures value it).
    const price = priceOf(row.code);
    const value = price === null ? openValue : holdingValue(price, Number(row.shares), Number(row.fxRate));
    add(Number(row.userId), row.currency, Number(row.margin) + pricePnlOf(row.direction, openValue, value));
  }
  for (const [userId, total] of totals) totals.set(userId, Math.round(total));
  return {
    entrants: entrants.map((e) => ({
      userId: Number(e.user_id),
      nickname: e.nickname,
      baseCny: Number(e.base_cny),
      joinedAt: Number(e.joined_at),
    })),
    totals,
  };
}

/** Stores each entrant's point for `day` from a snapshot (the last of that day); `replace` for the final one. */
async function storeEquityPoints(
  station: Station,
  competitionId: number,
  snapshot: Snapshot,
  replace: boolean,
): Promise<void> {
  const day = shanghaiDay(snapshot.takenAt);
  const values = snapshot.standings.map((s) => ({
    competition_id: competitionId,
    user_id: s.userId,
    day,
    total_assets_cny: s.totalCny,
    taken_at: snapshot.takenAt,
  }));
  // Bounded statements: a parameter list per statement stays well under both databases' limits.
  for (let i = 0; i < values.length; i += 1000) {
    await station.db
      .insertInto('competition_equity')
      .values(values.slice(i, i + 1000))
      .onConflict((oc) =>
        replace
          ? oc.columns(['competition_id', 'user_id', 'day']).doUpdateSet((eb) => ({
              total_assets_cny: eb.ref('excluded.total_assets_cny'),
              taken_at: eb.ref('excluded.taken_at'),
            }))
          : oc.columns(['competition_id', 'user_id', 'day']).doNothing(),
      )
      .execute();
  }
}

/** Takes one competition's ranking at `now` (frozen at its end) and stores it. */
export async function rankCompetition(station: Station, row: CompetitionRow, now: number): Promise<Snapshot> {
  const frozen = now >= row.end_at;
  const at = frozen ? row.end_at : now;
  const previous = await currentSnapshot(station, row.id);
  const before = new Map(previous?.standings.map((s) => [s.userId, s]) ?? []);
  const { entrants, totals } = await valuedEntrants(station, row.id, at);
  const standings: Standing[] = entrants.map((e) => {
    const totalCny = totals.get(e.userId) ?? 0;
    const last = before.get(e.userId);
    return {
      userId: e.userId,
      nickname: e.nickname,
      totalCny,
      baseCny: e.baseCny,
      reachedAt: last && last.totalCny === totalCny ? last.reachedAt : at,
      joinedAt: e.joinedAt,
    };
  });
  standings.sort(compareStandings);
  const snapshot: Snapshot = { takenAt: at, frozen, standings };
  if (previous && !previous.frozen && shanghaiDay(previous.takenAt) !== shanghaiDay(at)) {
    await storeEquityPoints(station, row.id, previous, false);
  }
  const values = { taken_at: at, frozen: frozen ? 1 : 0, rows: JSON.stringify(standings.map(toStored)) };
  await station.db
    .insertInto('competition_snapshots')
    .values({ competition_id: row.id, ...values })
    .onConflict((oc) => oc.column('competition_id').doUpdateSet(values))
    .execute();
  if (frozen) {
    await storeEquityPoints(station, row.id, snapshot, true);
    await station.db
      .updateTable('competitions')
      .set({ frozen_at: now })
      .where('id', '=', row.id)
      .where('frozen_at', 'is', null)
      .execute();
  }
  cacheOf(station).set(row.id, { snapshot, checkedAt: performance.now() });
  // A ranking taken again at the same instant (a pinned clock) is no news.
  if (previous?.takenAt !== at || previous.frozen !== frozen) {
    rankingStored(station, { competitionId: row.id, takenAt: at, frozen });
  }
  return snapshot;
}

/**
 * A ranking stored elsewhere (the leader, in scale-out mode): this process's copy of an older snapshot is
 * looked up again at the next read, so a client that reads the leaderboard on the event gets the new one.
 */
export function snapshotStoredElsewhere(station: Station, event: RankingEvent): void {
  const cached = cacheOf(station).get(event.competitionId);
  if (cached && (cached.snapshot?.takenAt !== event.takenAt || cached.snapshot.frozen !== event.frozen)) {
    cached.checkedAt = Number.NEGATIVE_INFINITY;
  }
}

/** The ranking job's step: every competition started and not frozen; how many were ranked. */
export async function rankCompetitions(station: Station, now: number): Promise<number> {
  const due = await station.db
    .selectFrom('competitions')
    .selectAll()
    .where('start_at', '<=', now)
    .where('frozen_at', 'is', null)
    .orderBy('id')
    .execute();
  for (const row of due) await rankCompetition(station, row, now);
  return due.length;
}

/**
 * leaderboard.do: a page of the stored ranking (empty before its first ranking), and the version of the
 * ranking it is cut from (the snapshot's time and state): the same version and page are the same answer,
 * so the route keeps its serialised, compressed bytes until the next snapshot (server/platform BodyCache).
 */
export async function leaderboardPage(
  station: Station,
  query: { id: number; pageNum: number; pageSize: number },
): Promise<{ version: string; page: () => Leaderboard }> {
  const snapshot = await currentSnapshot(station, query.id);
  if (!snapshot) {
    const exists = await station.db
      .selectFrom('competitions')
      .select('id')
      .where('id', '=', query.id)
      .executeTakeFirst();
    if (!exists) throw new AppError('NOT_FOUND');
  }
  const version = snapshot ? `${snapshot.takenAt}${snapshot.frozen ? 'f' : ''}` : 'none';
  const page = (): Leaderboard => {
    const standings = snapshot?.standings ?? [];
    const from = (query.pageNum - 1) * query.pageSize;
    return {
      list: standings.slice(from, from + query.pageSize).map((s, i) => toLeaderboardRow(s, from + i + 1)),
      total: standings.length,
      pageNum: query.pageNum,
      pageSize: query.pageSize,
      takenAt: snapshot?.takenAt ?? null,
      frozen: snapshot?.frozen ?? false,
    };
  };
  return { version, page };
}

/** The entrant's rank and figures in the latest snapshot, or null before they are ranked. */
export async function standingOf(
  station: Station,
  competitionId: number,
  userId: number,
): Promise<{ rank: number; totalAssets: number; returnPct: number } | null> {
  const snapshot = await currentSnapshot(station, competitionId);
  if (!snapshot) return null;
  snapshot.index ??= new Map(snapshot.standings.map((s, i) => [s.userId, i]));
  const i = snapshot.index.get(userId);
  if (i === undefined) return null;
  const row = toLeaderboardRow(snapshot.standings[i]!, i + 1);
  return { rank: row.rank, totalAssets: row.totalAssets, returnPct: row.returnPct };
}

/** equity.do: the entrant's daily points, and today's from the latest snapshot while it runs. */
export async function equityCurve(
  station: Station,
  userId: number,
  competitionId: number,
): Promise<EquityPoint[]> {
  const entrant = await station.db
    .selectFrom('competition_entrants')
    .select('base_cny')
    .where('competition_id', '=', competitionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!entrant) throw new AppError('NO_PERMISSION', { msgKey: 'COMPETITION_NOT_JOINED' });
  const base = Number(entrant.base_cny);
  const stored = await station.db
    .selectFrom('competition_equity')
    .select(['day', 'total_assets_cny'])
    .where('competition_id', '=', competitionId)
    .where('user_id', '=', userId)
    .orderBy('day')
    .execute();
  const points = stored.map((p) => ({ day: p.day, totalCny: Number(p.total_assets_cny) }));
  const snapshot = await currentSnapshot(station, competitionId);
  const mine = snapshot?.standings.find((s) => s.userId === userId);
  if (snapshot && mine) {
    const day = shanghaiDay(snapshot.takenAt);
    if (points.at(-1)?.day !== day) points.push({ day, totalCny: mine.totalCny });
  }
  return points.map((p) => ({
    day: p.day,
    totalAssets: toMajor(p.totalCny),
    returnPct: returnPct(p.totalCny, base),
  }));
}

/**
 * New shares' issues and subscriptions as records and as the user sees them (the rules: new-shares.ts):
 * the calendar with each issue's phase and draw, the subscription views, and the reads and locks the
 * subscribing and event files share.
 */
import { createHmac } from 'node:crypto';
import { toMajor } from '../../src/shared/money';
import type { Page } from '../../src/shared/api/types';
import type {
  NewIssue,
  NewIssuePhase,
  NewIssueType,
  NewShareSubscription,
  SubscriptionKind,
  SubscriptionState,
} from '../../src/shared/api/newshares';
import { drawSeedHash } from '../../src/shared/newshare-draw';
import {
  AppError,
  type NewshareIssuesTable,
  type NewshareSubscriptionsTable,
  type Db,
  type Tx,
  type Station,
} from '../platform';
import type { Selectable } from 'kysely';
import { calendarOf, type CalendarIssue } from './new-share-calendar';
import { sharesPerLot } from '../trading';

/** The first allocation number of every issue (numbers are this + 0, 1, 2, …). */
export const NUMBER_BASE = 100_000_001;
/** How far ahead the calendar list shows issues (ms): settings.products.newShares.listAheadDays. */
const listAheadMs = (station: Station) =>
  station.config.settings.products.newShares.listAheadDays * 86_400_000;

type IssueRow = Selectable<NewshareIssuesTable>;
type SubscriptionRow = Selectable<NewshareSubscriptionsTable>;

const secrets = new WeakMap<Db, Promise<string>>();

async function drawSecret(db: Db): Promise<string> {
  let secret = secrets.get(db);
  if (!secret) {
    secret = db
      .selectFrom('station_secrets')
      .select('value')
      .where('name', '=', 'newshare_draw')
      .executeTakeFirstOrThrow()
      .then((row) => row.value);
    secrets.set(db, secret);
    secret.catch(() => secrets.delete(db));
  }
  return secret;
}

/** The draw seed of an issue: HMAC-SHA256(station secret, "newshare-draw:" + code), 64 hex digits. */
export async function issueSeed(station: Station, code: string): Promise<string> {
  const secret = await drawSecret(station.db);
  return createHmac('sha256', Buffer.from(secret, 'hex')).update(`newshare-draw:${code}`).digest('hex');
}

/** An issue of the calendar by its code; NOT_FOUND when there is none. */
export function issueOf(station: Station, code: string): CalendarIssue {
  const issue = calendarOf(station.market).byCode.get(code.trim().toUpperCase());
  if (!issue) throw new AppError('NOT_FOUND');
  return issue;
}

/** Shares per lot of the issue's instrument. */
export function lotShares(station: Station, issue: CalendarIssue): number {
  return sharesPerLot(station, issue.instrument);
}

function phaseOf(issue: CalendarIssue, row: IssueRow | undefined, now: number): NewIssuePhase {
  if (row?.listed_at != null) return 'listed';
  if (row?.drawn_at != null) return 'drawn';
  if (now < issue.subscribeOpensAt) return 'upcoming';
  if (now < issue.subscribeClosesAt) return 'subscribing';
  return 'awaiting_draw';
}

const parseNumbers = (json: string | null): number[] => (json ? (JSON.parse(json) as number[]) : []);

async function toIssue(
  station: Station,
  issue: CalendarIssue,
  row: IssueRow | undefined,
  now: number,
): Promise<NewIssue> {
  const seed = await issueSeed(station, issue.code);
  const drawn = row?.drawn_at != null;
  return {
    code: issue.code,
    name: issue.name,
    nameEn: issue.nameEn,
    type: issue.type,
    market: issue.market,
    issuePrice: issue.issuePrice,
    placementPrice: issue.placementPrice,
    pe: issue.pe,
    issueVolume: issue.issueVolume,
    onlineLots: issue.onlineLots,
    perUserCap: issue.perUserCap,
    sharesPerLot: lotShares(station, issue),
    placementLots: issue.placementLots,
    placementLeft: issue.placementLots - (row?.placement_sold ?? 0),
    subscribeDate: issue.subscribeDate,
    drawDate: issue.drawDate,
    listingDate: issue.listingDate,
    subscribeOpensAt: issue.subscribeOpensAt,
    subscribeClosesAt: issue.subscribeClosesAt,
    drawAt: issue.drawAt,
    payDeadline: issue.payDeadline,
    listingAt: issue.listingAt,
    phase: phaseOf(issue, row, now),
    draw: {
      seedHash: drawSeedHash(seed),
      seed: drawn ? row.seed : null,
      numbersFrom: NUMBER_BASE,
      numbersCount: row?.numbers_count ?? 0,
      winnersCount: drawn ? row.winners_count : null,
      winningNumbers: drawn ? parseNumbers(row.winning_numbers) : null,
      drawnAt: row?.drawn_at ?? null,
    },
  };
}

async function issueRows(db: Db, codes: readonly string[]): Promise<Map<string, IssueRow>> {
  if (codes.length === 0) return new Map();
  const rows = await db.selectFrom('newshare_issues').selectAll().where('code', 'in', codes).execute();
  return new Map(rows.map((r) => [r.code, r]));
}

/** newStockList.do: the calendar (up to two weeks ahead), newest online issue date first. */
export async function listIssues(
  station: Station,
  query: { type?: NewIssueType | undefined; code?: string | undefined; pageNum: number; pageSize: number },
): Promise<Page<NewIssue>> {
  const now = station.clock.now();
  const code = query.code?.trim().toUpperCase();
  const ahead = listAheadMs(station);
  const matching = calendarOf(station.market)
    .list.filter(
      (issue) =>
        (code === undefined
          ? // Always-open mode's daily issues show a day ahead at most, so they do not bury the calendar's own.
            issue.subscribeOpensAt <= now + (issue.alwaysOpen ? Math.min(86_400_000, ahead) : ahead)
          : issue.code === code) &&
        (query.type === undefined || issue.type === query.type),
    )
    .slice()
    .reverse();
  const page = matching.slice((query.pageNum - 1) * query.pageSize, query.pageNum * query.pageSize);
  const rows = await issueRows(
    station.db,
    page.map((i) => i.code),
  );
  return {
    list: await Promise.all(page.map((issue) => toIssue(station, issue, rows.get(issue.code), now))),
    total: matching.length,
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}

/** newStockQc.do: the issues whose chip-grab placement is open now (in the window, lots left). */
export async function placementIssues(station: Station, type?: NewIssueType): Promise<NewIssue[]> {
  const now = station.clock.now();
  const open = calendarOf(station.market).list.filter(
    (issue) =>
      issue.subscribeOpensAt <= now &&
      now < issue.subscribeClosesAt &&
      (type === undefined || issue.type === type),
  );
  const rows = await issueRows(
    station.db,
    open.map((i) => i.code),
  );
  const views = await Promise.all(open.map((issue) => toIssue(station, issue, rows.get(issue.code), now)));
  return views.filter((view) => view.placementLeft > 0);
}

async function closedPositions(db: Db | Tx, rows: readonly SubscriptionRow[]): Promise<Set<number>> {
  const ids = rows.map((r) => r.position_id).filter((id): id is number => id !== null);
  if (ids.length === 0) return new Set();
  const closed = await db
    .selectFrom('positions')
    .select('id')
    .where('id', 'in', ids)
    .where('state', '=', 'closed')
    .execute();
  return new Set(closed.map((p) => p.id));
}

/** A subscription as the API shows it; `closed` holds the ids of its listed positions already closed. */
export function toSubscription(
  station: Station,
  row: SubscriptionRow,
  closed: ReadonlySet<number>,
): NewShareSubscription {
  const issue = issueOf(station, row.code);
  const state: SubscriptionState =
    row.state === 'listed' && row.position_id !== null && closed.has(row.position_id) ? 'closed' : row.state;
  return {
    id: row.id,
    code: row.code,
    name: issue.name,
    type: issue.type,
    kind: row.kind,
    state,
    lots: row.lots,
    shares: row.shares,
    price: row.price,
    firstNumber: row.first_number,
    lastNumber: row.first_number === null ? null : row.first_number + row.lots - 1,
    wonLots: row.won_lots,
    winningNumbers: parseNumbers(row.winning_numbers),
    amountDue: toMajor(row.amount_due),
    amountPaid: toMajor(row.amount_paid),
    payDeadline: issue.payDeadline,
    listingAt: issue.listingAt,
    positionId: row.position_id,
    createdAt: row.created_at,
    drawnAt: row.drawn_at,
    paidAt: row.paid_at,
    listedAt: row.listed_at,
  };
}

async function subscriptionsView(
  station: Station,
  db: Db | Tx,
  rows: SubscriptionRow[],
): Promise<NewShareSubscription[]> {
  const closed = await closedPositions(db, rows);
  return rows.map((row) => toSubscription(station, row, closed));
}

/** Refuses outside the issue's subscription window. */
export function assertSubscribing(issue: CalendarIssue, now: number): void {
  if (now < issue.subscribeOpensAt || now >= issue.subscribeClosesAt) {
    throw new AppError('OUTSIDE_TRADING_HOURS', {
      msgKey: 'NEWSHARE_NOT_SUBSCRIBING',
      params: { date: issue.subscribeDate },
    });
  }
}

/** The issue's row, created when first needed, locked (PostgreSQL; SQLite runs one writer at a time). */
export async function lockIssue(trx: Tx, station: Station, code: string): Promise<IssueRow> {
  await trx
    .insertInto('newshare_issues')
    .values({
      code,
      drawn_at: null,
      seed: null,
      winners_count: null,
      winning_numbers: null,
      settled_at: null,
      listed_at: null,
    })
    .onConflict((oc) => oc.column('code').doNothing())
    .execute();
  return trx
    .selectFrom('newshare_issues')
    .selectAll()
    .where('code', '=', code)
    .$if(station.dialect === 'postgres', (q) => q.forUpdate())
    .executeTakeFirstOrThrow();
}

/** A subscription row as the caller's transaction sees it now. */
export async function readSubscription(trx: Tx, id: number): Promise<SubscriptionRow> {
  return trx.selectFrom('newshare_subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** getOneSubscribeByUserId.do / getzqjl.do: the user's subscriptions, newest first. */
export async function listSubscriptions(
  station: Station,
  userId: number,
  query: {
    code?: string | undefined;
    kind?: SubscriptionKind | undefined;
    wonOnly?: boolean;
    pageNum: number;
    pageSize: number;
  },
): Promise<Page<NewShareSubscription>> {
  const code = query.code?.trim().toUpperCase();
  const base = station.db
    .selectFrom('newshare_subscriptions')
    .where('user_id', '=', userId)
    .$if(code !== undefined, (q) => q.where('code', '=', code!))
    .$if(query.kind !== undefined, (q) => q.where('kind', '=', query.kind!))
    .$if(query.wonOnly === true, (q) => q.where('won_lots', '>', 0));
  const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy('id', 'desc')
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize)
    .execute();
  return {
    list: await subscriptionsView(station, station.db, rows),
    total: Number(total),
    pageNum: query.pageNum,
    pageSize: query.pageSize,
  };
}

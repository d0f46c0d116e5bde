/**
 * New-share and new-bond subscription (issue 13; DOMAIN.md "New share / bond subscription"): subscribe in
 * an issue's window, the verifiable draw, paying for winning lots from the newstock account, chip-grab
 * placement, and on listing the paid lots becoming an ordinary position (in the newstock account, sellable
 * like any other from the listing day).
 *
 * Rules decided here:
 * - add.do: one subscription per user and issue, 1 … the issue's per-user cap lots, inside the window
 *   (09:30-15:00 Shanghai on the online issue date), KYC as for orders. Each lot gets one allocation
 *   number, consecutive per subscription, in the order subscriptions arrive. No money moves (the real
 *   rule: winners pay after the draw).
 * - The draw runs at the issue's draw time (engine, runDueNewShareEvents): W = min(online lots, numbers)
 *   winning numbers by src/shared/newshare-draw.ts from the issue's seed. The seed is
 *   HMAC-SHA256(station secret, "newshare-draw:" + code): fixed per issue by a secret made with the
 *   database, so no one picks it after seeing the subscriptions; its SHA-256 is published from the start,
 *   the seed itself once drawn. A subscription with winning numbers is `winning`, else `not_winning`.
 * - submitSubscribe.do: a winning subscription pays won lots × 100 × issue price from the newstock account
 *   (a ledger 'buy' entry, ref 'newshare') before the payment deadline. At the deadline the unpaid winning
 *   lots are forfeited: the subscription is `abandoned` (spec: "unpaid by the deadline").
 * - buyNewStockQc.do (chip grab): placement lots at the placement price, first come first served until the
 *   issue's placement lots are gone (the issue row is locked, so exactly that many are sold), paid at once;
 *   once per user and issue, at most the per-user cap, in the subscription window.
 * - Listing (at the listing time): every paid subscription becomes an open long position, leverage 1,
 *   open price = the price paid, margin = the amount paid (already out of the balance), no fees, sellable
 *   from the listing. Its state is then `listed`, and `closed` once that position is closed.
 * - Each event (draw, deadline, listing) of an issue runs once: its issue row is locked and its mark
 *   (drawn_at, settled_at, listed_at) checked and written in the same transaction as its effects.
 */
import { createHmac } from 'node:crypto';
import { toMajor, toMinor } from '../../src/shared/money';
import type { Page } from '../../src/shared/api/types';
import type {
  NewIssue,
  NewIssuePhase,
  NewIssueType,
  NewShareSubscription,
  SubscriptionKind,
  SubscriptionState,
} from '../../src/shared/api/newshares';
import { allocationNumbers, drawSeedHash, drawWinners } from '../../src/shared/newshare-draw';
import { checkLots } from '../../src/shared/validation';
import type { NewshareIssuesTable, NewshareSubscriptionsTable } from '../platform/db/newshares-schema';
import type { Db, Tx } from '../platform/db/schema';
import type { Selectable } from 'kysely';
import { AppError, assertFields } from '../platform/errors';
import { calendarOf, type CalendarIssue } from './new-share-calendar';
import type { Station } from '../platform/station';
import { runOnce, storedAnswer } from '../platform/idempotency';
import { requireKyc } from '../identity/kyc-gate';
import { lockAccount, post, postingAgainst } from '../ledger/ledger';
import { postMessage } from '../ledger/messages';
import { sharesPerLot } from '../trading/trading';

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

function issueOf(station: Station, code: string): CalendarIssue {
  const issue = calendarOf(station.market).byCode.get(code.trim().toUpperCase());
  if (!issue) throw new AppError('NOT_FOUND');
  return issue;
}

function lotShares(station: Station, issue: CalendarIssue): number {
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
        (code === undefined ? issue.subscribeOpensAt <= now + ahead : issue.code === code) &&
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

function toSubscription(
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

function assertSubscribing(issue: CalendarIssue, now: number): void {
  if (now < issue.subscribeOpensAt || now >= issue.subscribeClosesAt) {
    throw new AppError('OUTSIDE_TRADING_HOURS', {
      msgKey: 'NEWSHARE_NOT_SUBSCRIBING',
      params: { date: issue.subscribeDate },
    });
  }
}

/** The issue's row, created when first needed, locked (PostgreSQL; SQLite runs one writer at a time). */
async function lockIssue(trx: Tx, station: Station, code: string): Promise<IssueRow> {
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

export interface SubscribeOrder {
  code: string;
  lots: number;
  requestId: string;
}

async function readSubscription(trx: Tx, id: number): Promise<SubscriptionRow> {
  return trx.selectFrom('newshare_subscriptions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** add.do: subscribe in the window; allocation numbers are given out, no money moves. */
export async function subscribe(
  station: Station,
  userId: number,
  order: SubscribeOrder,
): Promise<NewShareSubscription> {
  const call = 'newshareSubscribe';
  const earlier = await storedAnswer<NewShareSubscription>(station.db, userId, order.requestId, call);
  if (earlier !== undefined) return earlier;
  const issue = issueOf(station, order.code);
  assertFields({ lots: checkLots(order.lots, issue.perUserCap) });
  await requireKyc(station, userId, 'trading');
  const now = station.clock.now();
  assertSubscribing(issue, now);

  return runOnce(station.db, { userId, requestId: order.requestId, call, now }, async (trx) => {
    const row = await lockIssue(trx, station, issue.code);
    if (row.drawn_at !== null) assertSubscribing(issue, issue.drawAt);
    const existing = await trx
      .selectFrom('newshare_subscriptions')
      .select('id')
      .where('user_id', '=', userId)
      .where('code', '=', issue.code)
      .where('kind', '=', 'lottery')
      .executeTakeFirst();
    if (existing) throw new AppError('ALREADY_DONE', { msgKey: 'NEWSHARE_ALREADY_SUBSCRIBED' });
    const account = await lockAccount(trx, station.dialect, userId, 'newstock');
    await trx
      .updateTable('newshare_issues')
      .set({ numbers_count: row.numbers_count + order.lots })
      .where('code', '=', issue.code)
      .execute();
    const inserted = await trx
      .insertInto('newshare_subscriptions')
      .values({
        user_id: userId,
        account_id: account.id,
        code: issue.code,
        kind: 'lottery',
        state: 'subscribed',
        lots: order.lots,
        shares: order.lots * lotShares(station, issue),
        price: issue.issuePrice,
        first_number: NUMBER_BASE + row.numbers_count,
        won_lots: null,
        position_id: null,
        created_at: now,
        drawn_at: null,
        paid_at: null,
        listed_at: null,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return toSubscription(station, await readSubscription(trx, inserted.id), new Set());
  });
}

/** buyNewStockQc.do: chip-grab placement lots at the placement price, paid at once. */
export async function grabPlacement(
  station: Station,
  userId: number,
  order: SubscribeOrder,
): Promise<NewShareSubscription> {
  const call = 'newsharePlacement';
  const earlier = await storedAnswer<NewShareSubscription>(station.db, userId, order.requestId, call);
  if (earlier !== undefined) return earlier;
  const issue = issueOf(station, order.code);
  assertFields({ lots: checkLots(order.lots, issue.perUserCap) });
  await requireKyc(station, userId, 'trading');
  const now = station.clock.now();
  assertSubscribing(issue, now);
  const shares = order.lots * lotShares(station, issue);
  const amount = toMinor(issue.placementPrice * shares);

  return runOnce(station.db, { userId, requestId: order.requestId, call, now }, async (trx) => {
    const row = await lockIssue(trx, station, issue.code);
    const left = issue.placementLots - row.placement_sold;
    if (order.lots > left) {
      throw new AppError('ABOVE_MAXIMUM', { msgKey: 'NEWSHARE_PLACEMENT_LEFT', params: { left } });
    }
    const existing = await trx
      .selectFrom('newshare_subscriptions')
      .select('id')
      .where('user_id', '=', userId)
      .where('code', '=', issue.code)
      .where('kind', '=', 'placement')
      .executeTakeFirst();
    if (existing) throw new AppError('ALREADY_DONE', { msgKey: 'NEWSHARE_ALREADY_GRABBED' });
    const account = await lockAccount(trx, station.dialect, userId, 'newstock');
    if (account.balance - account.frozen < amount) throw new AppError('INSUFFICIENT_FUNDS');
    await trx
      .updateTable('newshare_issues')
      .set({ placement_sold: row.placement_sold + order.lots })
      .where('code', '=', issue.code)
      .execute();
    const inserted = await trx
      .insertInto('newshare_subscriptions')
      .values({
        user_id: userId,
        account_id: account.id,
        code: issue.code,
        kind: 'placement',
        state: 'paid',
        lots: order.lots,
        shares,
        price: issue.placementPrice,
        first_number: null,
        won_lots: order.lots,
        amount_due: amount,
        amount_paid: amount,
        position_id: null,
        created_at: now,
        drawn_at: null,
        paid_at: now,
        listed_at: null,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await post(
      trx,
      postingAgainst('new_shares', {
        accountId: account.id,
        userId,
        type: 'buy',
        amount: -amount,
        time: now,
        refType: 'newshare',
        refId: inserted.id,
        note: `${issue.code} ×${shares} placement`,
      }),
    );
    return toSubscription(station, await readSubscription(trx, inserted.id), new Set());
  });
}

/** submitSubscribe.do: pays a winning subscription's won lots before the deadline. */
export async function payWinning(
  station: Station,
  userId: number,
  order: { id: number; requestId: string },
): Promise<NewShareSubscription> {
  const call = 'newsharePay';
  const earlier = await storedAnswer<NewShareSubscription>(station.db, userId, order.requestId, call);
  if (earlier !== undefined) return earlier;
  const now = station.clock.now();

  return runOnce(station.db, { userId, requestId: order.requestId, call, now }, async (trx) => {
    const account = await lockAccount(trx, station.dialect, userId, 'newstock');
    const row = await trx
      .selectFrom('newshare_subscriptions')
      .selectAll()
      .where('id', '=', order.id)
      .where('user_id', '=', userId)
      .$if(station.dialect === 'postgres', (q) => q.forUpdate())
      .executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND');
    if (row.state !== 'winning') {
      throw new AppError('ALREADY_DONE', {
        msgKey:
          row.state === 'subscribed' || row.state === 'not_winning' ? 'NEWSHARE_NOT_WON' : 'NEWSHARE_PAID',
      });
    }
    const issue = issueOf(station, row.code);
    if (now >= issue.payDeadline) {
      throw new AppError('ALREADY_DONE', { msgKey: 'NEWSHARE_PAY_CLOSED' });
    }
    if (account.balance - account.frozen < row.amount_due) throw new AppError('INSUFFICIENT_FUNDS');
    await post(
      trx,
      postingAgainst('new_shares', {
        accountId: account.id,
        userId,
        type: 'buy',
        amount: -row.amount_due,
        time: now,
        refType: 'newshare',
        refId: row.id,
        note: `${row.code} ×${(row.won_lots ?? 0) * lotShares(station, issue)}`,
      }),
    );
    await trx
      .updateTable('newshare_subscriptions')
      .set({ state: 'paid', amount_paid: row.amount_due, paid_at: now, updated_at: now })
      .where('id', '=', row.id)
      .execute();
    return toSubscription(station, await readSubscription(trx, row.id), new Set());
  });
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

export interface NewShareEventsResult {
  draws: number;
  deadlines: number;
  listings: number;
}

/** The draw of one issue at its draw time; false when it had run already. */
async function runDraw(station: Station, issue: CalendarIssue): Promise<boolean> {
  const seed = await issueSeed(station, issue.code);
  const t = issue.drawAt;
  return station.db.transaction().execute(async (trx) => {
    const row = await lockIssue(trx, station, issue.code);
    if (row.drawn_at !== null) return false;
    const numbers = allocationNumbers(NUMBER_BASE, row.numbers_count);
    const winners = drawWinners(seed, numbers, issue.onlineLots);
    const winning = new Set(winners);
    await trx
      .updateTable('newshare_issues')
      .set({
        drawn_at: t,
        seed,
        winners_count: winners.length,
        winning_numbers: JSON.stringify(winners),
      })
      .where('code', '=', issue.code)
      .execute();
    const subscriptions = await trx
      .selectFrom('newshare_subscriptions')
      .selectAll()
      .where('code', '=', issue.code)
      .where('kind', '=', 'lottery')
      .where('state', '=', 'subscribed')
      .orderBy('id')
      .execute();
    const perLot = lotShares(station, issue);
    for (const s of subscriptions) {
      const mine = allocationNumbers(s.first_number!, s.lots).filter((n) => winning.has(n));
      const won = mine.length;
      await trx
        .updateTable('newshare_subscriptions')
        .set({
          state: won > 0 ? 'winning' : 'not_winning',
          won_lots: won,
          winning_numbers: JSON.stringify(mine),
          amount_due: toMinor(s.price * won * perLot),
          drawn_at: t,
          updated_at: t,
        })
        .where('id', '=', s.id)
        .execute();
      await postMessage(trx, {
        userId: s.user_id,
        kind: 'newshare',
        msgKey: won > 0 ? 'newshareWon' : 'newshareNotWon',
        params: { code: issue.code, name: issue.name, lots: won },
        refType: 'newshare',
        refId: s.id,
        now: t,
      });
    }
    return true;
  });
}

/** The payment deadline of one issue: unpaid winning subscriptions are forfeited. */
async function runDeadline(station: Station, issue: CalendarIssue): Promise<boolean> {
  const t = issue.payDeadline;
  return station.db.transaction().execute(async (trx) => {
    const row = await lockIssue(trx, station, issue.code);
    if (row.settled_at !== null || row.drawn_at === null) return false;
    await trx
      .updateTable('newshare_subscriptions')
      .set({ state: 'abandoned', updated_at: t })
      .where('code', '=', issue.code)
      .where('state', '=', 'winning')
      .execute();
    await trx.updateTable('newshare_issues').set({ settled_at: t }).where('code', '=', issue.code).execute();
    return true;
  });
}

/** The listing of one issue: every paid subscription becomes an open position. */
async function runListing(station: Station, issue: CalendarIssue): Promise<boolean> {
  const t = issue.listingAt;
  return station.db.transaction().execute(async (trx) => {
    const row = await lockIssue(trx, station, issue.code);
    if (row.listed_at !== null || row.settled_at === null) return false;
    const paid = await trx
      .selectFrom('newshare_subscriptions')
      .selectAll()
      .where('code', '=', issue.code)
      .where('state', '=', 'paid')
      .orderBy('id')
      .execute();
    const perLot = lotShares(station, issue);
    for (const s of paid) {
      const lots = s.won_lots ?? 0;
      const position = await trx
        .insertInto('positions')
        .values({
          user_id: s.user_id,
          account_id: s.account_id,
          code: issue.code,
          market: issue.market,
          direction: 'long',
          state: 'open',
          lots,
          shares: lots * perLot,
          leverage: 1,
          open_price: s.price,
          open_value: s.amount_paid,
          margin: s.amount_paid,
          buy_fee: 0,
          buy_fee_detail: '{}',
          sell_fee: 0,
          sell_fee_detail: null,
          stamp_duty: 0,
          deferred_fee: 0,
          stop_profit: null,
          stop_loss: null,
          opened_at: t,
          sellable_from: t,
          closed_at: null,
          close_price: null,
          close_value: null,
          close_reason: null,
          split_from: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('newshare_subscriptions')
        .set({ state: 'listed', position_id: position.id, listed_at: t, updated_at: t })
        .where('id', '=', s.id)
        .execute();
      await postMessage(trx, {
        userId: s.user_id,
        kind: 'newshare',
        msgKey: 'newshareListed',
        params: { code: issue.code, name: issue.name, lots },
        refType: 'position',
        refId: position.id,
        now: t,
      });
    }
    await trx.updateTable('newshare_issues').set({ listed_at: t }).where('code', '=', issue.code).execute();
    return true;
  });
}

/**
 * Every draw, payment deadline and listing due by `now` that has not run yet, in time order per issue
 * (engine.ts calls this each step). Each runs once whatever the retries or concurrent engines.
 */
export async function runDueNewShareEvents(station: Station, now: number): Promise<NewShareEventsResult> {
  const result: NewShareEventsResult = { draws: 0, deadlines: 0, listings: 0 };
  const due = calendarOf(station.market).list.filter((issue) => issue.drawAt <= now);
  if (due.length === 0) return result;
  const rows = await station.db
    .selectFrom('newshare_issues')
    .select(['code', 'drawn_at', 'settled_at', 'listed_at'])
    .execute();
  const byCode = new Map(rows.map((r) => [r.code, r]));
  for (const issue of due) {
    const row = byCode.get(issue.code);
    if (row?.listed_at != null) continue;
    if (row?.drawn_at == null && (await runDraw(station, issue))) result.draws++;
    if (issue.payDeadline <= now && row?.settled_at == null && (await runDeadline(station, issue))) {
      result.deadlines++;
    }
    if (issue.listingAt <= now && (await runListing(station, issue))) result.listings++;
  }
  return result;
}

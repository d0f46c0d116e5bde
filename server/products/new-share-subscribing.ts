/**
 * Subscribing to new shares and paying (the rules: new-shares.ts): add.do, the chip grab of placement
 * lots, and paying for winning lots before the deadline.
 */
import { toMinor } from '../../src/shared/money';
import type { NewShareSubscription } from '../../src/shared/api/newshares';
import {
  AppError,
  assertFields,
  lotsProblem,
  runOnce,
  storedAnswer,
  type Station,
  stationText,
} from '../platform';
import { requireKyc } from '../identity';
import { lockAccount, post, postingAgainst } from '../ledger';
import {
  assertSubscribing,
  issueOf,
  lockIssue,
  lotShares,
  readSubscription,
  toSubscription,
  NUMBER_BASE,
} from './new-share-records';

export interface SubscribeOrder {
  code: string;
  lots: number;
  requestId: string;
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
  assertFields({ lots: lotsProblem(order.lots, issue.perUserCap) });
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
  assertFields({ lots: lotsProblem(order.lots, issue.perUserCap) });
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
        note: stationText('notePlacement', { code: issue.code, shares }),
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

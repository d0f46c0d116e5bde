/**
 * New shares' time-driven events (the rules: new-shares.ts): the verifiable draw, the payment deadline and
 * the listing, each run once per issue by the engine's step.
 */
import { toMinor } from '../../src/shared/money';
import { allocationNumbers, drawWinners } from '../../src/shared/newshare-draw';
import { calendarOf, type CalendarIssue } from './new-share-calendar';
import type { Station } from '../platform';
import { postMessage } from '../ledger';
import { issueSeed, lockIssue, lotShares, NUMBER_BASE } from './new-share-records';

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
          // An A-share in a CNY account (trade-rules.ts settlementRate).
          fx_rate: 1,
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

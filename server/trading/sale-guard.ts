/**
 * The one guard of "may this position be sold at t", asked by every path that closes a position:
 * - the user's sale (sell.do, sellFunds.do), through `assertUserMaySell`, on top of the market's own rules
 *   (session, T+1, price limit);
 * - the engine's closes (stops, liquidation: engine-close.ts), through `engineMaySell`, which the engine asks
 *   on the locked rows at the minute it would fill (its own market checks: engine-quotes.ts `closable`).
 * The rule both share: a position of a fund allocation's sub-account may be sold only while its allocation
 * trades and before its last close (DOMAIN.md "Fund allocation": at the end of the period the positions are
 * closed and the allocation repaid). After that the period is over even if the settlement, behind after a
 * restart or run by another timer, has not happened yet; a sale then — the user's, a stop's or a
 * liquidation's — would fill at a later price on borrowed capital.
 * A position of a competition account may likewise be sold only while its competition runs: from its end
 * the ranking is frozen, valued at the last price (server/competitions/ranking.ts), and nothing closes it.
 * Only the allocation's settlement (fund-allocation-settlement.ts: expiry, the end after liquidation, the user
 * ending early) closes without asking: it is what ends the period, and it closes at the last close's price.
 */
import { AppError, prepared, type PositionRow, type Tx } from '../platform';

const selectAccountType = prepared<{ accountId: number }>()((db, p) =>
  db.selectFrom('accounts').select(['type', 'competition_id']).where('id', '=', p.accountId),
);

const selectCompetitionTimes = prepared<{ id: number }>()((db, p) =>
  db.selectFrom('competitions').select(['start_at', 'end_at']).where('id', '=', p.id),
);

type Refusal = 'closed' | 'allocation-over' | 'competition-over' | 'other-competition';

// A user's one sub-account serves each of their allocations in turn, so the account names several: the
// one that matters is the one trading now (at most one at a time), not the first ever.
const selectTradingAllocationOf = prepared<{ accountId: number }>()((db, p) =>
  db
    .selectFrom('allocations')
    .select(['status', 'expires_at'])
    .where('account_id', '=', p.accountId)
    .where('status', '=', 'trading')
    .orderBy('id', 'desc')
    .limit(1),
);

/**
 * Why a sale of the position at `at` is refused, or null when it may be sold; `competitionId` (a user's
 * sale naming one) must be the position's competition.
 */
async function saleRefusal(
  trx: Tx,
  position: PositionRow,
  at: number,
  competitionId?: number,
): Promise<Refusal | null> {
  if (position.state !== 'open') return 'closed';
  const [account] = await selectAccountType.rows(trx, { accountId: position.account_id });
  const ownCompetition = account?.competition_id ?? null;
  if (competitionId !== undefined && competitionId !== ownCompetition) return 'other-competition';
  if (account?.type === 'competition' && ownCompetition !== null) {
    const [times] = await selectCompetitionTimes.rows(trx, { id: ownCompetition });
    return times && at >= times.start_at && at < times.end_at ? null : 'competition-over';
  }
  if (account?.type !== 'fund') return null;
  const [allocation] = await selectTradingAllocationOf.rows(trx, { accountId: position.account_id });
  const trading =
    allocation !== undefined &&
    allocation.status === 'trading' &&
    allocation.expires_at !== null &&
    at < allocation.expires_at;
  return trading ? null : 'allocation-over';
}

/**
 * The user's sale: ALREADY_DONE when the position is closed or its allocation's period is over,
 * COMPETITION_CLOSED when its competition has ended, NOT_FOUND when it is not in the competition named.
 */
export async function assertUserMaySell(
  trx: Tx,
  position: PositionRow,
  now: number,
  competitionId?: number,
): Promise<void> {
  const refusal = await saleRefusal(trx, position, now, competitionId);
  if (refusal === 'closed') throw new AppError('ALREADY_DONE');
  if (refusal === 'allocation-over') throw new AppError('ALREADY_DONE', { msgKey: 'ALLOCATION_NOT_TRADING' });
  if (refusal === 'competition-over')
    throw new AppError('COMPETITION_CLOSED', { msgKey: 'COMPETITION_ENDED' });
  if (refusal === 'other-competition') throw new AppError('NOT_FOUND');
}

/**
 * The engine's close at minute t (a stop or a liquidation): false when the position may not be sold then.
 * The position then waits for the allocation's settlement, which closes it at the last close's price.
 */
export async function engineMaySell(trx: Tx, position: PositionRow, t: number): Promise<boolean> {
  return (await saleRefusal(trx, position, t)) === null;
}

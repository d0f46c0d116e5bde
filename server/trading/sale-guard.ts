/**
 * The one guard of a user's sale (sell.do, sellFunds.do): may the user sell this position now? Beyond the
 * market's own rules (session, T+1, price limit), a position of a fund allocation's sub-account may be sold
 * only while its allocation trades and before its last close (DOMAIN.md "Fund allocation"): after that the
 * period is over even if the engine, behind after a restart, has not settled it yet, and a sale then would
 * pick a later price on borrowed capital. The engine's own closes (stops, liquidation, expiry) do not ask.
 */
import { AppError, prepared, type PositionRow, type Tx } from '../platform';

const selectAccountType = prepared<{ accountId: number }>()((db, p) =>
  db.selectFrom('accounts').select('type').where('id', '=', p.accountId),
);

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

export async function assertUserMaySell(trx: Tx, position: PositionRow, now: number): Promise<void> {
  if (position.state !== 'open') throw new AppError('ALREADY_DONE');
  const [account] = await selectAccountType.rows(trx, { accountId: position.account_id });
  if (account?.type !== 'fund') return;
  const [allocation] = await selectTradingAllocationOf.rows(trx, { accountId: position.account_id });
  const trading =
    allocation !== undefined &&
    allocation.status === 'trading' &&
    allocation.expires_at !== null &&
    now < allocation.expires_at;
  if (!trading) throw new AppError('ALREADY_DONE', { msgKey: 'ALLOCATION_NOT_TRADING' });
}

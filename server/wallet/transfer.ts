/**
 * Transfers between the CNY accounts main, index and newstock (transAmt.do): instant, of available cash
 * only (what pending limit orders hold stays), as a 'transfer_out' and a 'transfer_in' entry in one
 * transaction, once per requestId.
 */
import type { AccountType, TransferResult } from '../../src/shared/api/types';
import { AppError, runOnce, storedAnswer, type Tx, type Station, stationText } from '../platform';
import { accountFigures, post, type OwnAccountRow } from '../ledger';
import { amountToMinor, moneyText } from './wallet';

/** Locks the user's accounts of `types` in id order (so two movers never wait on each other in a cycle). */
export async function lockAccounts(
  station: Station,
  trx: Tx,
  userId: number,
  types: readonly AccountType[],
): Promise<Map<AccountType, OwnAccountRow>> {
  const rows = await trx
    .selectFrom('accounts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('type', 'in', [...types])
    .$narrowType<{ type: AccountType }>()
    .orderBy('id')
    .$if(station.dialect === 'postgres', (q) => q.forUpdate())
    .execute();
  return new Map(rows.map((row) => [row.type, row]));
}

export async function transfer(
  station: Station,
  userId: number,
  input: { amount: number; from: AccountType; to: AccountType; requestId: string },
): Promise<TransferResult> {
  const call = 'transfer';
  const earlier = await storedAnswer<TransferResult>(station.db, userId, input.requestId, call);
  if (earlier !== undefined) return earlier;
  const allowed: readonly AccountType[] = station.config.wallet.transferAccounts;
  if (!allowed.includes(input.from)) throw new AppError('VALIDATION', { fields: { from: 'invalid' } });
  if (!allowed.includes(input.to) || input.to === input.from) {
    throw new AppError('VALIDATION', { fields: { to: 'invalid' } });
  }
  const amount = amountToMinor(input.amount);
  const now = station.clock.now();
  return runOnce(station.db, { userId, requestId: input.requestId, call, now }, async (trx) => {
    const locked = await lockAccounts(station, trx, userId, [input.from, input.to]);
    const from = locked.get(input.from)!;
    const to = locked.get(input.to)!;
    const available = from.balance - from.frozen;
    if (amount > available) {
      throw new AppError('INSUFFICIENT_FUNDS', {
        msgKey: 'TRANSFER_ABOVE_AVAILABLE',
        params: { available: moneyText(Math.max(0, available)) },
      });
    }
    const record = await trx
      .insertInto('transfers')
      .values({ user_id: userId, from_account: from.type, to_account: to.type, amount, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Between the user's own accounts: the two legs balance each other, no house account takes part.
    await post(trx, {
      time: now,
      refType: 'transfer',
      refId: record.id,
      entries: [
        {
          userId,
          accountId: from.id,
          type: 'transfer_out',
          amount: -amount,
          note: stationText('noteTransferTo', { account: to.type }),
        },
        {
          userId,
          accountId: to.id,
          type: 'transfer_in',
          amount,
          note: stationText('noteTransferFrom', { account: from.type }),
        },
      ],
      house: [],
    });
    const accounts = await trx
      .selectFrom('accounts')
      .selectAll()
      .where('id', 'in', [from.id, to.id])
      // The two accounts locked above, of the user's own types.
      .$narrowType<{ type: AccountType }>()
      .execute();
    const positions = await trx
      .selectFrom('positions')
      .selectAll()
      .where('account_id', 'in', [from.id, to.id])
      .where('state', '=', 'open')
      .execute();
    const figures = accountFigures(station, accounts, positions, now);
    return {
      from: figures.find((a) => a.type === from.type)!,
      to: figures.find((a) => a.type === to.type)!,
    };
  });
}

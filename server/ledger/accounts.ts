/**
 * The user's accounts as API.md's `account` figures, and the paper-account reset.
 *
 * Rules decided here:
 * - A reset needs a quiet account: no open position and no pending limit order (nothing frozen), else
 *   RESET_BLOCKED with the reason. It brings every account back to its paper starting balance with one
 *   `reset` ledger entry per account whose balance differs (the difference), keeping positions, orders and
 *   the ledger as history.
 */
import { toMinor } from '../../src/shared/money';
import type { Account, AccountType } from '../../src/shared/api/types';
import {
  AppError,
  runOnce,
  storedAnswer,
  type DbOrTx,
  type PositionRow,
  type Tx,
  type Station,
  stationText,
} from '../platform';
import { post, postingAgainst } from './ledger';
import { openPositionFigures, toAccount, type OwnAccountRow } from './views';
import { accountRiskState } from './risk-state';
import { riskExposure } from '../../src/shared/risk';

/** The order accounts are shown in. */
const ACCOUNT_ORDER: readonly AccountType[] = ['main', 'index', 'newstock', 'hk', 'us'];

/**
 * An open position valued at `now`: its price, the previous close and whether it was opened on the
 * instrument's current trading day (an instrument no longer listed stays at its open price, unmoved today).
 */
function markOf(
  station: Station,
  row: PositionRow,
  now: number,
): { price: number; prevClose: number; openedToday: boolean } {
  const found = station.market.findTradable(row.code);
  if (!found) return { price: row.open_price, prevClose: row.open_price, openedToday: true };
  const { instrument } = found;
  const quote = station.market.quote(instrument, now);
  const openedToday = station.market.onCurrentTradingDay(instrument, row.opened_at, now);
  return { price: quote.price, prevClose: quote.prevClose, openedToday };
}

/** Account figures of `accounts` with the user's open positions valued now. */
export function accountFigures(
  station: Station,
  accounts: readonly OwnAccountRow[],
  openPositions: readonly PositionRow[],
  now = station.clock.now(),
): Account[] {
  const { warningLine, liquidationLine } = station.config.settings;
  const order = new Map(ACCOUNT_ORDER.map((t, i) => [t, i]));
  return [...accounts]
    .sort((a, b) => (order.get(a.type) ?? 0) - (order.get(b.type) ?? 0))
    .map((account) => {
      const held = openPositions
        .filter((p) => p.account_id === account.id)
        .map((row) => ({ row, mark: markOf(station, row, now) }));
      // The five accounts borrow only through their positions (a fund allocation's sub-account is not one).
      const state = accountRiskState(
        account,
        null,
        held.map(({ row, mark }) => ({ row, price: mark.price })),
      );
      return toAccount(
        account,
        held.map(({ row, mark }) => openPositionFigures(row, mark.price, mark)),
        { warningLine, liquidationLine },
        riskExposure(state),
      );
    });
}

/** The user's five accounts valued at current prices. */
export async function accountsOf(
  station: Station,
  userId: number,
  db: DbOrTx = station.db,
): Promise<Account[]> {
  // A fund allocation's sub-account (type 'fund') is shown with its allocation, not here.
  const accounts = await db
    .selectFrom('accounts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('type', 'in', ACCOUNT_ORDER)
    .$narrowType<{ type: AccountType }>()
    .execute();
  const positions = await db
    .selectFrom('positions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('state', '=', 'open')
    .execute();
  return accountFigures(station, accounts, positions);
}

/** reset.do: every account back to its paper starting balance, when nothing is open or pending. */
/** Fund units, an allocation under review or trading, paid new shares not yet listed, a pending withdrawal. */
async function holdsProducts(db: Tx, userId: number): Promise<boolean> {
  const [units, allocation, paid, withdrawal] = await Promise.all([
    db
      .selectFrom('fund_holdings')
      .select('user_id')
      .where('user_id', '=', userId)
      .where('units', '>', 0)
      .executeTakeFirst(),
    db
      .selectFrom('allocations')
      .select('id')
      .where('user_id', '=', userId)
      .where('status', 'in', ['review', 'trading'])
      .executeTakeFirst(),
    db
      .selectFrom('newshare_subscriptions')
      .select('id')
      .where('user_id', '=', userId)
      .where('state', '=', 'paid')
      .executeTakeFirst(),
    db
      .selectFrom('withdrawals')
      .select('id')
      .where('user_id', '=', userId)
      .where('status', '=', 'pending')
      .executeTakeFirst(),
  ]);
  return [units, allocation, paid, withdrawal].some((row) => row !== undefined);
}

export async function resetPaperAccount(
  station: Station,
  userId: number,
  requestId: string,
): Promise<Account[]> {
  const call = 'resetAccount';
  const earlier = await storedAnswer<Account[]>(station.db, userId, requestId, call);
  if (earlier !== undefined) return earlier;
  const { settings } = station.config;
  const now = station.clock.now();

  return runOnce(station.db, { userId, requestId, call, now }, async (trx) => {
    // Lock the accounts first: a buy or a limit order locks its account, so none slips in meanwhile.
    const accounts = await trx
      .selectFrom('accounts')
      .selectAll()
      .where('user_id', '=', userId)
      .where('type', 'in', ACCOUNT_ORDER)
      .$narrowType<{ type: AccountType }>()
      .orderBy('id')
      .$if(station.dialect === 'postgres', (q) => q.forUpdate())
      .execute();
    const open = await trx
      .selectFrom('positions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('state', '=', 'open')
      .executeTakeFirstOrThrow();
    if (Number(open.n) > 0) throw new AppError('RESET_BLOCKED', { msgKey: 'RESET_HAS_POSITIONS' });
    const pending = await trx
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    if (Number(pending.n) > 0 || accounts.some((a) => a.frozen !== 0)) {
      throw new AppError('RESET_BLOCKED', { msgKey: 'RESET_HAS_ORDERS' });
    }
    // Money that left the accounts and may come back (a fund redeemed, an allocation's margin, paid new
    // shares that list as a position, a withdrawal cancelled or refused): a reset now would pay it twice.
    if (await holdsProducts(trx, userId)) {
      throw new AppError('RESET_BLOCKED', { msgKey: 'RESET_HAS_PRODUCTS' });
    }
    for (const account of accounts) {
      const difference = toMinor(settings.startingBalances[account.type]) - account.balance;
      if (difference === 0) continue;
      await post(
        trx,
        postingAgainst('paper', {
          accountId: account.id,
          userId,
          type: 'reset',
          amount: difference,
          time: now,
          refType: 'reset',
          note: stationText('noteAccountReset'),
        }),
      );
    }
    return accountsOf(station, userId, trx);
  });
}

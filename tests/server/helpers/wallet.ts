/** Wallet helpers for server tests: a user ready to withdraw, balances, ledger sums. */
import type { FixedClock } from '../../../server/market/clock';
import type { AccountType } from '../../../src/shared/api/types';
import { passKyc } from './identity';
import { data, register, type ApiClient, type Registered, type TestStation } from './station';

export const WITHDRAW_PASSWORD = '135790';
export const CARD_NO = '6222020200119876543';

/** Registers a user with KYC passed, a bank card and a withdrawal password. */
export async function readyToWithdraw(
  station: TestStation<FixedClock>,
  client: ApiClient,
): Promise<Registered> {
  const user = await register(client);
  await passKyc(station, user, '王五');
  data(
    await user.client.post('/user/bank/add.do', {
      bankName: '工商银行',
      branch: '北京分行',
      cardNo: CARD_NO,
    }),
  );
  data(await user.client.post('/user/insertWithPwd.do', { withPwd: WITHDRAW_PASSWORD }));
  return user;
}

/** An account's balance and frozen amount in minor units, straight from the database. */
export async function accountOf(
  station: TestStation<FixedClock>,
  userId: number,
  type: AccountType = 'main',
): Promise<{ id: number; balance: number; frozen: number }> {
  const row = await station.app.db
    .selectFrom('accounts')
    .select(['id', 'balance', 'frozen'])
    .where('user_id', '=', userId)
    .where('type', '=', type)
    .executeTakeFirstOrThrow();
  return { id: row.id, balance: Number(row.balance), frozen: Number(row.frozen) };
}

/** Sum of a user's ledger entries of `types` (minor units). */
export async function entriesSum(
  station: TestStation<FixedClock>,
  userId: number,
  types: readonly string[],
): Promise<number> {
  const rows = await station.app.db
    .selectFrom('ledger_entries')
    .select('amount')
    .where('user_id', '=', userId)
    .where('type', 'in', [...types])
    .execute();
  return rows.reduce((sum, r) => sum + Number(r.amount), 0);
}

const WALLET_TABLES = ['recharges', 'withdrawals', 'transfers', 'exchanges', 'user_messages'] as const;
type WalletTable = (typeof WALLET_TABLES)[number];
type Counts = Awaited<ReturnType<TestStation<FixedClock>['counts']>> & Record<WalletTable, number>;

/** Rows in the wallet's tables, with the station's money tables: to show a refused call wrote nothing. */
export async function walletCounts(station: TestStation<FixedClock>): Promise<Counts> {
  const wallet = {} as Record<WalletTable, number>;
  for (const table of WALLET_TABLES) {
    const row = await station.app.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    wallet[table] = Number(row.n);
  }
  return { ...(await station.counts()), ...wallet };
}

/** Runs the engine's step at the station's clock after the review delay (the pay channel answers). */
export async function afterReview(station: TestStation<FixedClock>): Promise<void> {
  station.clock.advance(station.config.reviewDelaySeconds * 1000);
  await station.app.engine.step();
}

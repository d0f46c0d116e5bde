/**
 * The wallet: deposits through the simulated pay channels, withdrawals to the bound bank card,
 * transfers between the CNY accounts and currency flash exchanges. Every money movement itself is in the
 * ledger; these tables keep the request, its state and what the user reads in the record lists.
 */
import { type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database';

export function walletSchema(dialect: DialectName): Migration {
  const pg = dialect === 'postgres';
  const id = pg ? 'bigserial' : 'integer';
  const money = 'bigint';
  const time = 'bigint';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('recharges')
        .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id'))
        .addColumn('order_no', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('channel_id', 'integer', (c) => c.notNull())
        .addColumn('channel_name', 'varchar(128)', (c) => c.notNull())
        .addColumn('amount', money, (c) => c.notNull())
        .addColumn('status', 'varchar(12)', (c) => c.notNull())
        .addColumn('fail_reason', 'varchar(512)')
        .addColumn('decided_by', 'varchar(80)')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('decided_at', time)
        .execute();
      await db.schema.createIndex('recharges_user').on('recharges').columns(['user_id', 'id']).execute();
      await db.schema
        .createIndex('recharges_status')
        .on('recharges')
        .columns(['status', 'created_at'])
        .execute();

      // The card and the payee are copied at request time: the record shows where the money went.
      await db.schema
        .createTable('withdrawals')
        .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id'))
        .addColumn('order_no', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('amount', money, (c) => c.notNull())
        .addColumn('fee', money, (c) => c.notNull())
        .addColumn('payee_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('bank_name', 'varchar(128)', (c) => c.notNull())
        .addColumn('card_no_masked', 'varchar(32)', (c) => c.notNull())
        .addColumn('status', 'varchar(12)', (c) => c.notNull())
        .addColumn('cancel_reason', 'varchar(512)')
        .addColumn('reject_reason', 'varchar(512)')
        .addColumn('decided_by', 'varchar(80)')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('decided_at', time)
        .execute();
      await db.schema.createIndex('withdrawals_user').on('withdrawals').columns(['user_id', 'id']).execute();
      await db.schema
        .createIndex('withdrawals_status')
        .on('withdrawals')
        .columns(['status', 'created_at'])
        .execute();

      await db.schema
        .createTable('transfers')
        .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('from_account', 'varchar(12)', (c) => c.notNull())
        .addColumn('to_account', 'varchar(12)', (c) => c.notNull())
        .addColumn('amount', money, (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('transfers_user').on('transfers').columns(['user_id', 'id']).execute();

      // Rates as given (mid: units of the target currency for one unit of the source).
      await db.schema
        .createTable('exchanges')
        .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('source', 'varchar(3)', (c) => c.notNull())
        .addColumn('target', 'varchar(3)', (c) => c.notNull())
        .addColumn('source_amount', money, (c) => c.notNull())
        .addColumn('target_amount', money, (c) => c.notNull())
        .addColumn('mid_rate', 'double precision', (c) => c.notNull())
        .addColumn('spread_rate', 'double precision', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('exchanges_user').on('exchanges').columns(['user_id', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['exchanges', 'transfers', 'withdrawals', 'recharges']) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}

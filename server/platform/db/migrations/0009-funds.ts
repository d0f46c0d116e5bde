/**
 * Funds and fund allocation. Fund products are bought and sold at the day's NAV: holdings and
 * the trade records here, the money in the ledger. An allocation is an application (margin, multiple,
 * period) with its state; while it trades, its sub-account is an `accounts` row of type 'fund' (one per
 * user, reused by the user's next allocation), so its cash is in the ledger and its positions are ordinary
 * positions of that account. The time-driven events of an allocation (daily fee, expiry) are marked once in
 * engine_runs or by a conditional update of the allocation's status.
 */
import { type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database';

export function fundsSchema(dialect: DialectName): Migration {
  const pg = dialect === 'postgres';
  const id = pg ? 'bigserial' : 'integer';
  const money = 'bigint';
  const time = 'bigint';
  return {
    async up(db: Kysely<unknown>) {
      // Units in hundredths of a fund unit; cost in minor units (what the held units were bought for).
      await db.schema
        .createTable('fund_holdings')
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('fund_code', 'varchar(16)', (c) => c.notNull())
        .addColumn('units', 'bigint', (c) => c.notNull())
        .addColumn('cost', money, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('fund_holdings_pk', ['user_id', 'fund_code'])
        .execute();

      await db.schema
        .createTable('fund_trades')
        .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('fund_code', 'varchar(16)', (c) => c.notNull())
        .addColumn('side', 'varchar(8)', (c) => c.notNull())
        .addColumn('units', 'bigint', (c) => c.notNull())
        .addColumn('nav', 'double precision', (c) => c.notNull())
        .addColumn('amount', money, (c) => c.notNull())
        .addColumn('fee', money, (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('fund_trades_user').on('fund_trades').columns(['user_id', 'id']).execute();

      await db.schema
        .createTable('allocations')
        .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('type_code', 'varchar(16)', (c) => c.notNull())
        .addColumn('status', 'varchar(12)', (c) => c.notNull())
        .addColumn('end_reason', 'varchar(16)')
        .addColumn('margin', money, (c) => c.notNull())
        .addColumn('multiple', 'integer', (c) => c.notNull())
        .addColumn('allocated', money, (c) => c.notNull())
        .addColumn('days', 'integer', (c) => c.notNull())
        .addColumn('daily_fee_rate', 'double precision', (c) => c.notNull())
        .addColumn('daily_fee', money, (c) => c.notNull())
        .addColumn('warning_line', 'double precision', (c) => c.notNull())
        .addColumn('liquidation_line', 'double precision', (c) => c.notNull())
        // Trading days whose fee is done (charged or owed): the next one is day fee_days + 1.
        .addColumn('fee_days', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('fees_charged', money, (c) => c.notNull().defaultTo(0))
        // Fees the sub-account's cash could not pay when due: taken first at the settlement.
        .addColumn('fees_owed', money, (c) => c.notNull().defaultTo(0))
        .addColumn('account_id', 'bigint', (c) => c.references('accounts.id'))
        // The time of the warning of the current risk episode; null when R is at or above the warning line.
        .addColumn('warned_at', time)
        .addColumn('reject_reason', 'varchar(512)')
        .addColumn('decided_by', 'varchar(80)')
        .addColumn('returned', money)
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('started_at', time)
        .addColumn('expires_at', time)
        .addColumn('ended_at', time)
        .execute();
      await db.schema.createIndex('allocations_user').on('allocations').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('allocations_status').on('allocations').columns(['status', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['allocations', 'fund_trades', 'fund_holdings']) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}

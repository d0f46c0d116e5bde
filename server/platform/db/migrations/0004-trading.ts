/**
 * The trading engine (DOMAIN.md "Leverage, margin and liquidation"): limit orders and the funds they hold, the watchlist, the engine's run marks
 * (so a day close, a deferred fee or a sweep runs once even across restarts and processes) and the messages
 * the station sends a user (liquidation warnings and the like).
 */
import { type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database';

export function tradingSchema(dialect: DialectName): Migration {
  const pg = dialect === 'postgres';
  const id = pg ? 'bigserial' : 'integer';
  const money = 'bigint';
  const time = 'bigint';
  return {
    async up(db: Kysely<unknown>) {
      // Funds held by pending limit orders: available = balance − frozen. Not a ledger movement: the money
      // stays in the balance until the order fills (then the buy's entries move it) or is revoked.
      await db.schema
        .alterTable('accounts')
        .addColumn('frozen', money, (c) => c.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createTable('orders')
        .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id'))
        .addColumn('code', 'varchar(16)', (c) => c.notNull())
        .addColumn('market', 'varchar(8)', (c) => c.notNull())
        .addColumn('direction', 'varchar(8)', (c) => c.notNull())
        .addColumn('lots', 'integer', (c) => c.notNull())
        .addColumn('leverage', 'integer', (c) => c.notNull())
        .addColumn('trigger_price', 'double precision', (c) => c.notNull())
        .addColumn('stop_profit', 'double precision')
        .addColumn('stop_loss', 'double precision')
        // What the order holds of the account's available funds (margin + fees at the trigger price).
        .addColumn('frozen', money, (c) => c.notNull())
        .addColumn('status', 'varchar(12)', (c) => c.notNull())
        .addColumn('reject_reason', 'varchar(64)')
        .addColumn('position_id', 'bigint')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('orders_user').on('orders').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('orders_status').on('orders').columns(['status', 'id']).execute();

      await db.schema
        .createTable('watchlist')
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('code', 'varchar(16)', (c) => c.notNull())
        .addColumn('sort_order', 'integer', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('watchlist_pk', ['user_id', 'code'])
        .execute();

      // One row per job run that must happen once: (kind, key), e.g. ('day_close', 'cn:2025-03-12').
      await db.schema
        .createTable('engine_runs')
        .addColumn('kind', 'varchar(32)', (c) => c.notNull())
        .addColumn('key', 'varchar(64)', (c) => c.notNull())
        .addColumn('done_at', time, (c) => c.notNull())
        .addColumn('note', 'text')
        .addPrimaryKeyConstraint('engine_runs_pk', ['kind', 'key'])
        .execute();

      // Messages to a user, translated when read: a message key and its parameters (JSON).
      await db.schema
        .createTable('user_messages')
        .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('kind', 'varchar(32)', (c) => c.notNull())
        .addColumn('msg_key', 'varchar(64)', (c) => c.notNull())
        .addColumn('params', 'text', (c) => c.notNull())
        .addColumn('ref_type', 'varchar(32)')
        .addColumn('ref_id', 'bigint')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('read_at', time)
        .execute();
      await db.schema
        .createIndex('user_messages_user')
        .on('user_messages')
        .columns(['user_id', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['user_messages', 'engine_runs', 'watchlist', 'orders']) {
        await db.schema.dropTable(table).execute();
      }
      await db.schema.alterTable('accounts').dropColumn('frozen').execute();
    },
  };
}

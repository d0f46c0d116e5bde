/**
 * Block trades and VIP picks: the VIP allocations of each day with their sold lots, the VIP
 * purchases and the block-trade purchases. The positions and the money are in the positions table and
 * the ledger; these tables keep what the record screens show and what limits the next buyer.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database';

export function blockTradesVipSchema(dialect: DialectName): Migration {
  const pg = dialect === 'postgres';
  const id = pg ? 'bigserial' : 'integer';
  const time = 'bigint';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('vip_picks')
        .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('day_key', 'varchar(10)', (c) => c.notNull())
        .addColumn('code', 'varchar(16)', (c) => c.notNull())
        .addColumn('price', 'double precision', (c) => c.notNull())
        .addColumn('total_lots', 'integer', (c) => c.notNull())
        .addColumn('sold_lots', 'integer', (c) => c.notNull())
        .addColumn('max_lots_per_user', 'integer', (c) => c.notNull())
        .addColumn('opens_at', time, (c) => c.notNull())
        .addColumn('closes_at', time, (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addUniqueConstraint('vip_picks_day_code', ['day_key', 'code'])
        // The database itself refuses overselling, whatever the code does.
        .addCheckConstraint('vip_picks_sold', sql`sold_lots >= 0 and sold_lots <= total_lots`)
        .execute();

      await db.schema
        .createTable('vip_buys')
        .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('pick_id', 'bigint', (c) => c.notNull().references('vip_picks.id'))
        .addColumn('code', 'varchar(16)', (c) => c.notNull())
        .addColumn('lots', 'integer', (c) => c.notNull())
        .addColumn('price', 'double precision', (c) => c.notNull())
        .addColumn('position_id', 'bigint', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('vip_buys_user').on('vip_buys').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('vip_buys_pick').on('vip_buys').columns(['pick_id', 'user_id']).execute();

      await db.schema
        .createTable('block_trade_buys')
        .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('day_key', 'varchar(10)', (c) => c.notNull())
        .addColumn('code', 'varchar(16)', (c) => c.notNull())
        .addColumn('lots', 'integer', (c) => c.notNull())
        .addColumn('price', 'double precision', (c) => c.notNull())
        .addColumn('market_price', 'double precision', (c) => c.notNull())
        .addColumn('discount', 'double precision', (c) => c.notNull())
        .addColumn('position_id', 'bigint', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('block_trade_buys_user')
        .on('block_trade_buys')
        .columns(['user_id', 'id'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['block_trade_buys', 'vip_buys', 'vip_picks']) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}

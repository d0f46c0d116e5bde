/**
 * New-share and new-bond subscription. The calendar itself is generated from MARKET_SEED
 * (server/products/new-share-calendar.ts); these tables hold what happened to it: each issue's allocation counter,
 * placement sales and the draw, deadline and listing it went through (each applied once), the users'
 * subscriptions, and the station secret every issue's draw seed is derived from.
 */
import { randomBytes } from 'node:crypto';
import { type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database';

export function newSharesSchema(dialect: DialectName): Migration {
  const pg = dialect === 'postgres';
  const id = pg ? 'bigserial' : 'integer';
  const money = 'bigint';
  const time = 'bigint';
  return {
    async up(db: Kysely<unknown>) {
      // Secrets the station derives things from; never sent to a client. Made once, when the database is.
      await db.schema
        .createTable('station_secrets')
        .addColumn('name', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('value', 'varchar(128)', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await (db as Kysely<{ station_secrets: { name: string; value: string; created_at: number } }>)
        .insertInto('station_secrets')
        .values({ name: 'newshare_draw', value: randomBytes(32).toString('hex'), created_at: Date.now() })
        .execute();

      // One row per issue that has been touched (a subscription, a placement or one of its events).
      await db.schema
        .createTable('newshare_issues')
        .addColumn('code', 'varchar(16)', (c) => c.primaryKey())
        // Allocation numbers given out so far: the next subscription's first number is base + this.
        .addColumn('numbers_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('placement_sold', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('drawn_at', time)
        .addColumn('seed', 'varchar(64)')
        .addColumn('winners_count', 'integer')
        .addColumn('winning_numbers', 'text')
        // The payment deadline has been applied (unpaid winning lots forfeited).
        .addColumn('settled_at', time)
        .addColumn('listed_at', time)
        .execute();

      await db.schema
        .createTable('newshare_subscriptions')
        .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id'))
        .addColumn('code', 'varchar(16)', (c) => c.notNull())
        .addColumn('kind', 'varchar(12)', (c) => c.notNull())
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('lots', 'integer', (c) => c.notNull())
        .addColumn('shares', 'integer', (c) => c.notNull())
        .addColumn('price', 'double precision', (c) => c.notNull())
        .addColumn('first_number', 'bigint')
        .addColumn('won_lots', 'integer')
        .addColumn('winning_numbers', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('amount_due', money, (c) => c.notNull().defaultTo(0))
        .addColumn('amount_paid', money, (c) => c.notNull().defaultTo(0))
        .addColumn('position_id', 'bigint')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('drawn_at', time)
        .addColumn('paid_at', time)
        .addColumn('listed_at', time)
        .addColumn('updated_at', time, (c) => c.notNull())
        // One subscription and one placement per user and issue.
        .addUniqueConstraint('newshare_subscriptions_once', ['user_id', 'code', 'kind'])
        .execute();
      await db.schema
        .createIndex('newshare_subscriptions_user')
        .on('newshare_subscriptions')
        .columns(['user_id', 'id'])
        .execute();
      await db.schema
        .createIndex('newshare_subscriptions_code')
        .on('newshare_subscriptions')
        .columns(['code', 'state'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['newshare_subscriptions', 'newshare_issues', 'station_secrets']) {
        await db.schema.dropTable(table).execute();
      }
    },
  };
}

/**
 * Real history imported from CSV files (`npm run station -- import-history`), for replaying what really
 * happened instead of the seeded simulation. Day bars are keyed by the exchange's local trading day and
 * minute bars by the minute's start instant, each under its code first, so a replay reads one instrument's
 * bars over a time range from the primary key. Codes outside the catalogue are described in
 * history_instruments. Prices are in the instrument's currency (major units), as the market quotes them.
 */
import type { Kysely, Migration } from 'kysely';

export function historySchema(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('history_instruments')
        .addColumn('code', 'varchar(16)', (c) => c.primaryKey())
        // a | star | hk | us: the market whose hours, time zone and price limit its bars follow.
        .addColumn('market', 'varchar(8)', (c) => c.notNull())
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('currency', 'varchar(3)', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('history_day_bars')
        .addColumn('code', 'varchar(16)', (c) => c.notNull())
        // The trading day: whole days since 1970-01-01 in the exchange's time zone (sessions.ts).
        .addColumn('day', 'integer', (c) => c.notNull())
        .addColumn('open', 'double precision', (c) => c.notNull())
        .addColumn('high', 'double precision', (c) => c.notNull())
        .addColumn('low', 'double precision', (c) => c.notNull())
        .addColumn('close', 'double precision', (c) => c.notNull())
        .addColumn('volume', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('history_day_bars_pk', ['code', 'day'])
        .execute();
      await db.schema
        .createTable('history_minute_bars')
        .addColumn('code', 'varchar(16)', (c) => c.notNull())
        // The minute's start, epoch ms (UTC).
        .addColumn('t', 'bigint', (c) => c.notNull())
        // Its trading day (a night session's minutes belong to the next trading day).
        .addColumn('day', 'integer', (c) => c.notNull())
        .addColumn('open', 'double precision', (c) => c.notNull())
        .addColumn('high', 'double precision', (c) => c.notNull())
        .addColumn('low', 'double precision', (c) => c.notNull())
        .addColumn('close', 'double precision', (c) => c.notNull())
        .addColumn('volume', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('history_minute_bars_pk', ['code', 't'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('history_minute_bars').execute();
      await db.schema.dropTable('history_day_bars').execute();
      await db.schema.dropTable('history_instruments').execute();
    },
  };
}

/**
 * Price alerts: a user's condition on an instrument's price or its change today. An armed alert has
 * `fired_at` null; the trading engine fires it at the first minute the condition holds (writing `fired_at`,
 * the price then and a message in the same transaction) and the user may arm it again.
 */
import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database';

export function priceAlertsSchema(dialect: DialectName): Migration {
  const pg = dialect === 'postgres';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('price_alerts')
        .addColumn('id', pg ? 'bigserial' : 'integer', (c) =>
          pg ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
        .addColumn('code', 'varchar(16)', (c) => c.notNull())
        .addColumn('market', 'varchar(8)', (c) => c.notNull())
        // priceAbove | priceBelow | changeAbove | changeBelow
        .addColumn('kind', 'varchar(12)', (c) => c.notNull())
        // A price in the instrument's currency, or a change as a fraction of the previous close.
        .addColumn('value', 'double precision', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        // When it was (re-)armed: it is watched from the first minute at or after this instant.
        .addColumn('armed_at', 'bigint', (c) => c.notNull())
        .addColumn('fired_at', 'bigint')
        .addColumn('fired_price', 'double precision')
        .execute();
      await db.schema
        .createIndex('price_alerts_user')
        .on('price_alerts')
        .columns(['user_id', 'id'])
        .execute();
      await db.schema
        .createIndex('price_alerts_armed')
        .on('price_alerts')
        .columns(['fired_at', 'code'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('price_alerts').execute();
    },
  };
}

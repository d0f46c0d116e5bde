/**
 * The replay's clock (MARKET_SOURCE=replay): one row every station process reads, so all of them agree on
 * the replayed time and the operator pauses and resumes them all at once (`npm run station -- replay`).
 * The replayed time is market_ms while paused, else market_ms + (wall − wall_ms) × speed.
 */
import type { Kysely, Migration } from 'kysely';

export function replaySchema(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('replay_state')
        // One row, 'replay': the table has room for nothing else on purpose.
        .addColumn('name', 'varchar(16)', (c) => c.primaryKey())
        // REPLAY_FROM and REPLAY_SPEED the row was started with: a restart with other values starts afresh.
        .addColumn('replay_from', 'varchar(40)', (c) => c.notNull())
        .addColumn('speed', 'double precision', (c) => c.notNull())
        // The replayed instant at wall instant wall_ms (epoch ms both).
        .addColumn('market_ms', 'bigint', (c) => c.notNull())
        .addColumn('wall_ms', 'bigint', (c) => c.notNull())
        .addColumn('paused', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('replay_state').execute();
    },
  };
}

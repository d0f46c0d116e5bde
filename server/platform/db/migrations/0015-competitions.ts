/**
 * Trading competitions: the competition, its entrants (with the nickname shown on its leaderboard), the
 * ranking's stored snapshot (one row per competition, refreshed by the leader each second) and the entrants'
 * daily equity points. An entrant's competition accounts are `accounts` rows of type 'competition' (one per
 * currency) naming their competition, so a user holds one set per competition: the old one-account-per-type
 * rule becomes a unique index over the user's own accounts only (competition_id null).
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../database';

async function createCompetitionTables(db: Kysely<unknown>, pg: boolean): Promise<void> {
  const id = pg ? 'bigserial' : 'integer';
  await db.schema
    .createTable('competitions')
    .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('creator_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('description', 'varchar(1000)', (c) => c.notNull())
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint', (c) => c.notNull())
    .addColumn('starting_cny', 'bigint', (c) => c.notNull())
    .addColumn('starting_hkd', 'bigint', (c) => c.notNull())
    .addColumn('starting_usd', 'bigint', (c) => c.notNull())
    // Comma-separated markets (a,star,hk,us,index,futures).
    .addColumn('markets', 'varchar(64)', (c) => c.notNull())
    .addColumn('max_leverage', 'integer', (c) => c.notNull())
    .addColumn('allow_short', 'integer', (c) => c.notNull())
    .addColumn('visibility', 'varchar(8)', (c) => c.notNull())
    .addColumn('join_code', 'varchar(16)', (c) => c.unique())
    .addColumn('max_entrants', 'integer')
    .addColumn('entrants', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('frozen_at', 'bigint')
    .execute();
  await db.schema.createIndex('competitions_start').on('competitions').columns(['start_at', 'id']).execute();

  await db.schema
    .createTable('competition_entrants')
    .addColumn('competition_id', 'bigint', (c) => c.notNull().references('competitions.id'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('nickname', 'varchar(32)', (c) => c.notNull())
    // The starting cash valued in yuan at the flash-exchange mid rates of the join: the base of returnPct.
    .addColumn('base_cny', 'bigint', (c) => c.notNull())
    .addColumn('joined_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('competition_entrants_pk', ['competition_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('competition_entrants_user')
    .on('competition_entrants')
    .columns(['user_id', 'competition_id'])
    .execute();

  // The ranking as the leaderboard reads it: JSON rows in rank order, whole (one write a second).
  await db.schema
    .createTable('competition_snapshots')
    .addColumn('competition_id', 'bigint', (c) => c.primaryKey().references('competitions.id'))
    .addColumn('taken_at', 'bigint', (c) => c.notNull())
    .addColumn('frozen', 'integer', (c) => c.notNull())
    .addColumn('rows', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('competition_equity')
    .addColumn('competition_id', 'bigint', (c) => c.notNull().references('competitions.id'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('total_assets_cny', 'bigint', (c) => c.notNull())
    .addColumn('taken_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('competition_equity_pk', ['competition_id', 'user_id', 'day'])
    .execute();
}

/** SQLite cannot drop a table constraint: the accounts table is rebuilt (SQLite's documented procedure). */
async function rebuildSqliteAccounts(db: Kysely<unknown>): Promise<void> {
  // Not inside a transaction (SQLite migrations run without one), so the pragma takes effect.
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await sql`CREATE TABLE accounts_new (
      id integer PRIMARY KEY AUTOINCREMENT,
      user_id bigint NOT NULL REFERENCES users(id),
      type varchar(16) NOT NULL,
      currency varchar(3) NOT NULL,
      balance bigint NOT NULL DEFAULT 0,
      frozen bigint NOT NULL DEFAULT 0,
      competition_id bigint REFERENCES competitions(id)
    )`.execute(db);
    await sql`INSERT INTO accounts_new (id, user_id, type, currency, balance, frozen)
      SELECT id, user_id, type, currency, balance, frozen FROM accounts`.execute(db);
    await sql`DROP TABLE accounts`.execute(db);
    await sql`ALTER TABLE accounts_new RENAME TO accounts`.execute(db);
    const broken = await sql`PRAGMA foreign_key_check`.execute(db);
    if (broken.rows.length > 0) throw new Error('accounts rebuild: foreign keys broken');
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}

export function competitionsSchema(dialect: DialectName): Migration {
  const pg = dialect === 'postgres';
  return {
    async up(db: Kysely<unknown>) {
      await createCompetitionTables(db, pg);
      if (pg) {
        await sql`ALTER TABLE accounts DROP CONSTRAINT accounts_user_type`.execute(db);
        await sql`ALTER TABLE accounts ADD COLUMN competition_id bigint REFERENCES competitions(id)`.execute(
          db,
        );
      } else {
        await rebuildSqliteAccounts(db);
      }
      // The user's own accounts: one per type; a competition's: one per currency per entrant.
      await sql`CREATE UNIQUE INDEX accounts_user_type ON accounts (user_id, type)
        WHERE competition_id IS NULL`.execute(db);
      await sql`CREATE UNIQUE INDEX accounts_competition ON accounts (competition_id, user_id, currency)
        WHERE competition_id IS NOT NULL`.execute(db);
    },
    async down() {
      // The accounts table was rebuilt and competition accounts may hold ledger entries: no way back.
      throw new Error('0015-competitions cannot be undone');
    },
  };
}

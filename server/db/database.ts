/**
 * Opens the station's database: SQLite (better-sqlite3, WAL) in DATA_DIR by default, PostgreSQL when
 * DATABASE_URL is postgres://…; then brings the schema up to date with the migrations in code.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type MigrationProvider } from 'kysely';
import type { DB } from './schema';
import { migrations } from './migrations/index';

export type DialectName = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: DialectName;
  close(): Promise<void>;
}

let pgTypesRegistered = false;

/** int8 (COUNT, BIGINT, BIGSERIAL) as a JS number: every value the station stores is a safe integer. */
function registerPgTypes(): void {
  if (pgTypesRegistered) return;
  pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => {
    const n = Number(value);
    if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value out of the safe range: ${value}`);
    return n;
  });
  pgTypesRegistered = true;
}

export function openDatabase(options: { databaseUrl: string | null; sqlitePath: string }): Database {
  if (options.databaseUrl) {
    registerPgTypes();
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle client's error (e.g. the server restarting) must not crash the process.
    pool.on('error', () => undefined);
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: closeOnce(db) };
  }
  mkdirSync(path.dirname(options.sqlitePath), { recursive: true });
  const sqlite = new SQLite(options.sqlitePath);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', close: closeOnce(db) };
}

function closeOnce(db: Kysely<DB>): () => Promise<void> {
  let closing: Promise<void> | null = null;
  return () => (closing ??= db.destroy());
}

/** Runs every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(database: Database): Promise<void> {
  const all = migrations(database.dialect);
  const provider: MigrationProvider = { getMigrations: async () => all };
  // Issues land in parallel, so a migration may arrive with a name that sorts before one already run.
  const migrator = new Migrator({ db: database.db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(
      `database migration failed${name}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** True for a unique-constraint violation on either database. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown };
  return (
    e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/**
 * Opens the station's database: SQLite (better-sqlite3, WAL) in DATA_DIR by default, PostgreSQL when
 * DATABASE_URL is postgres://…; then brings the schema up to date with the migrations in code.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  type MigrationProvider,
  type SqliteDatabase,
} from 'kysely';
import type { DB } from './schema';
import { enableGroupCommit } from './group-commit';
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
  // Each call of a commit group runs in a savepoint (group-commit.ts), for which SQLite keeps a sub-journal:
  // the former content of every page the call changes. Past 64 KiB it spills to a temporary file, which cost
  // an order some 26 more pwrite calls (and a file opened and unlinked per group), counted with strace on the
  // order loop of npm run bench. In memory it is the same journal without the writes.
  sqlite.pragma('temp_store = MEMORY');
  const checkpointer = startCheckpointer(sqlite, options.sqlitePath);
  const statements = keepingStatements(sqlite);
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: statements }) });
  // What Kysely's SQLite connection does with a compiled query, for the statements of a commit group.
  enableGroupCommit(db, (text, parameters) => {
    const statement = statements.prepare(text);
    if (statement.reader) return statement.all(parameters);
    statement.run(parameters);
    return [];
  });
  const closeDb = closeOnce(db);
  let closing: Promise<void> | null = null;
  const close = () => (closing ??= checkpointer.stop().then(closeDb));
  return { db, dialect: 'sqlite', close };
}

/** How often the background thread checkpoints the WAL into the database file. */
const CHECKPOINT_EVERY_MS = 200;
/** WAL pages (4 KiB) after which a commit checkpoints by itself: only if the background thread falls behind. */
const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;
/** SQLite's own default, restored if the background thread cannot run. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

/** The checkpointing thread: its own connection, a PASSIVE checkpoint every few ms, closed on a message. */
const CHECKPOINTER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file);
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
const checkpoint = () => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy: the next round catches up */ }
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.once('message', () => { clearInterval(timer); checkpoint(); db.close(); parentPort.close(); });
`;

/**
 * Moves WAL checkpoints off the event loop (measured with npm run bench): by default the committing connection copies
 * the WAL into the database file and fsyncs both every 1000 pages, stalling every order behind it for
 * milliseconds (commits were 45% of the SQLite time of an order, 28% with this thread). A worker thread with its own connection now
 * checkpoints every CHECKPOINT_EVERY_MS without blocking the writer (PASSIVE). Durability is unchanged:
 * with synchronous=NORMAL a commit is in the WAL before it is answered and survives a crash of the process;
 * a power loss can lose what was committed since the last checkpoint's fsync, now at most ~200 ms of orders
 * instead of the last ~1000 pages.
 */
function startCheckpointer(sqlite: SQLite.Database, file: string): { stop(): Promise<void> } {
  sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  const worker = new Worker(CHECKPOINTER_SOURCE, {
    eval: true,
    execArgv: [],
    workerData: {
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      file,
      everyMs: CHECKPOINT_EVERY_MS,
    },
  });
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('error', () => {
    // The thread could not run: the writer checkpoints by itself again, as SQLite does by default.
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
  });
  return {
    async stop() {
      // Held again while stopping: an unref'd thread's exit cannot keep a closing process alive to see it.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}

/** Prepared statements kept per connection; more distinct SQL texts than this drop the oldest. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The SQLite connection as Kysely sees it, keeping its prepared statements: Kysely's SQLite driver prepares
 * every query afresh, and parsing and planning the same few statements again took about a tenth of the
 * station's CPU per order (measured with npm run bench). Reusing one is safe: Kysely runs one query at a time on the single connection,
 * and all()/run() finish before the next prepare; SQLite re-prepares a statement itself after a schema change.
 * A hit leaves the cache as it is (moving it to the end on every use cost more than the lookup): when full,
 * the statement prepared first goes, and comes back with its next use.
 */
function keepingStatements(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text) {
      let statement = statements.get(text);
      if (!statement) {
        statement = sqlite.prepare(text);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
        statements.set(text, statement);
      }
      return statement;
    },
  };
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

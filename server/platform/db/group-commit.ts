/**
 * Group commit on SQLite (measured with npm run bench): the money calls that arrive together share one transaction and
 * one COMMIT, each in its own savepoint. A commit writes every page the transaction changed to the WAL, and
 * orders change the same few pages (the positions, ledger and key tables and their indexes), so one commit
 * for several calls writes far less than one each: the commit was the largest single cost of an order.
 *
 * What each call sees and gets is what it would alone:
 * - the calls run one after another, each in a savepoint: a call that fails is rolled back to its savepoint
 *   and leaves the others alone; a call sees the calls before it, as it would once they had committed;
 * - no call is answered before the COMMIT that makes it durable (in the WAL, so it survives a crash of the
 *   process); if the COMMIT fails, every call of the group fails and none took effect;
 * - the group holds the connection from its first statement to its COMMIT, so nothing else (a read, another
 *   transaction) sees a call's writes before they are committed.
 * A group is the calls waiting when it starts: it starts on the event loop's check phase, after the requests
 * that arrived together have reached it, and the calls that arrive meanwhile form the next one.
 * PostgreSQL commits concurrent transactions itself, each call in its own transaction.
 *
 * Inside a group the connection is the group's alone, so its statements (the savepoints, and the prepared
 * queries of server/platform/db/prepared.ts) run straight on it, without Kysely's per-query connection handling (about a
 * twentieth of an order's CPU, measured with npm run bench): the same statements on the same connection, in the same order.
 */
import type { Db, DbOrTx, Tx } from './schema';

/** Most calls in one group: bounds how long the first of them waits for the others. */
const MAX_GROUP = 64;

/**
 * Runs one statement at once on the SQLite connection with positional parameters; answers its rows (none
 * for a statement without RETURNING), or throws SQLite's error as Kysely would pass it on.
 */
export type StatementRunner = (sql: string, parameters: readonly unknown[]) => unknown[];

/** The runner of each group's transaction, while its calls run. */
const groupRunners = new WeakMap<DbOrTx, StatementRunner>();

/**
 * How to run a statement straight on the connection when `db` is the transaction of a commit group whose
 * calls are running; undefined otherwise (use Kysely).
 */
export function groupStatementRunner(db: DbOrTx): StatementRunner | undefined {
  return groupRunners.get(db);
}

interface Call {
  run: (trx: Tx) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

class GroupCommitter {
  readonly #db: Db;
  readonly #run: StatementRunner;
  #waiting: Call[] = [];
  #scheduled = false;

  constructor(db: Db, run: StatementRunner) {
    this.#db = db;
    this.#run = run;
  }

  run<T>(mutate: (trx: Tx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#waiting.push({ run: mutate, resolve: resolve as (value: unknown) => void, reject });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => void this.#commitGroup());
  }

  async #commitGroup(): Promise<void> {
    let calls: Call[] = [];
    const outcomes: Outcome[] = [];
    try {
      await this.#db.transaction().execute(async (trx) => {
        // Taken once the connection is ours: calls that came while waiting for it join this group.
        calls = this.#waiting.splice(0, MAX_GROUP);
        const run = this.#run;
        groupRunners.set(trx, run);
        try {
          for (const call of calls) {
            run('savepoint group_call', []);
            try {
              const value = await call.run(trx);
              run('release group_call', []);
              outcomes.push({ ok: true, value });
            } catch (error) {
              // If SQLite rolled the whole transaction back (I/O error, disk full), this throws too and
              // the group fails as a whole.
              run('rollback to group_call', []);
              run('release group_call', []);
              outcomes.push({ ok: false, error });
            }
          }
        } finally {
          // From here on the connection goes back to Kysely (COMMIT, or ROLLBACK after a failure).
          groupRunners.delete(trx);
        }
      });
    } catch (error) {
      for (const call of calls) call.reject(error);
      return;
    } finally {
      this.#scheduled = false;
      if (this.#waiting.length > 0) this.#schedule();
    }
    calls.forEach((call, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) call.resolve(outcome.value);
      else call.reject(outcome.error);
    });
  }
}

const committers = new WeakMap<Db, GroupCommitter>();

/**
 * Lets `transaction` group the calls on this (SQLite) database; `run` runs a statement on its one
 * connection (the one Kysely uses).
 */
export function enableGroupCommit(db: Db, run: StatementRunner): void {
  committers.set(db, new GroupCommitter(db, run));
}

/**
 * Runs `mutate` in a transaction and resolves once it is committed: grouped with other calls where the
 * database allows it (enableGroupCommit), else a transaction of its own.
 */
export function transaction<T>(db: Db, mutate: (trx: Tx) => Promise<T>): Promise<T> {
  const committer = committers.get(db);
  return committer ? committer.run(mutate) : db.transaction().execute(mutate);
}

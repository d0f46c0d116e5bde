/**
 * Queries of the order path built once with Kysely and compiled once per database, then run with fresh
 * parameters (measured with npm run bench: building and compiling a query cost more than SQLite running it). The query is
 * written with the ordinary typed builder, the same text for SQLite and PostgreSQL; each parameter is a
 * named placeholder that the builder passes through as a value, so compiling finds where each one went.
 *
 * A placeholder may only be handed to the builder as a value (`where(col, '=', p.x)`, `values({ col: p.x })`,
 * `eb(col, '+', p.x)`): never inspected in JavaScript, never in a list (`in`), and never compared with
 * `is` (a null at run time then compares `= NULL`, as SQL does).
 */
import {
  PostgresAdapter,
  type Compilable,
  type CompiledQuery,
  type DialectAdapter,
  type Kysely,
} from 'kysely';
import type { DialectName } from './database';
import { groupStatementRunner } from './group-commit';
import type { DB, DbOrTx } from './schema';

/** What a build function receives for a parameter: its name, standing in for the value. */
class Placeholder {
  constructor(readonly name: string) {}
}

interface Compiled<R> {
  query: CompiledQuery<R>;
  /** For each parameter of the compiled text: the name of the placeholder, or a constant of the query. */
  slots: ({ name: string } | { value: unknown })[];
}

export interface PreparedQuery<P, R> {
  /** Runs the query with `params`; answers its rows (none for a statement without RETURNING). */
  rows(db: DbOrTx, params: P): Promise<R[]>;
}

/**
 * A query compiled on first use on each database (per Kysely adapter, so a transaction shares its database's
 * entry) and run again as compiled text. `build` gets placeholders for `P` and the dialect.
 */
export function prepared<P extends object>() {
  return <R>(
    build: (db: Kysely<DB>, params: P, dialect: DialectName) => Compilable<R>,
  ): PreparedQuery<P, R> => {
    const byAdapter = new WeakMap<DialectAdapter, Compiled<R>>();
    const compile = (db: DbOrTx): Compiled<R> => {
      const names = new Proxy({} as P, {
        get: (_target, name) => new Placeholder(String(name)),
      });
      const adapter = db.getExecutor().adapter;
      const query = build(db, names, adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite').compile();
      const slots = query.parameters.map((value) =>
        value instanceof Placeholder ? { name: value.name } : { value },
      );
      const compiled = { query, slots };
      byAdapter.set(adapter, compiled);
      return compiled;
    };
    return {
      async rows(db, params) {
        const compiled = byAdapter.get(db.getExecutor().adapter) ?? compile(db);
        const values = params as Record<string, unknown>;
        const parameters = compiled.slots.map((slot) => {
          if (!('name' in slot)) return slot.value;
          const value = values[slot.name];
          if (value === undefined) throw new TypeError(`prepared query: no value for ${slot.name}`);
          return value;
        });
        // In a commit group on SQLite, straight on the group's connection (server/platform/db/group-commit.ts).
        const direct = groupStatementRunner(db);
        if (direct) return direct(compiled.query.sql, parameters) as R[];
        const result = await db.executeQuery<R>({ ...compiled.query, parameters });
        return result.rows;
      },
    };
  };
}

/** The placeholders of `columns` as one object: what values() or set() takes for those columns. */
export function placeholders<P extends object, K extends keyof P>(
  params: P,
  columns: readonly K[],
): Pick<P, K> {
  const picked = {} as Pick<P, K>;
  for (const column of columns) picked[column] = params[column];
  return picked;
}

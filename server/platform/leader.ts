/**
 * Leader election (ARCHITECTURE.md "The test station", scale-out mode): of all the station processes on one
 * PostgreSQL database, exactly one runs the background jobs — the market simulator's tick publication, the
 * trading engine (limit-order triggers, stops, liquidations, day closes and their deferred fees, deposit and
 * withdrawal reviews) and the KYC rule reviewer. It is the one holding a session-level advisory lock
 * (`pg_try_advisory_lock`) on a dedicated connection, outside the pool.
 *
 * - Every process tries to take the lock at start and then about every RETRY_MS; the first one wins.
 * - A leader's lock lives as long as its connection: when the process dies (even by SIGKILL) the server closes
 *   the session and frees the lock, and another process takes it at its next try, within about a second.
 * - The leader checks its connection at every round (a `SELECT 1` with a timeout); when it fails or the
 *   connection drops, it steps down at once (its jobs stop starting new work) and competes again on a new
 *   connection.
 * - A new leader continues from the state stored in the database: the engine from its progress row in
 *   `engine_runs`, every effect keyed or conditional (engine.ts), so no day close, fee or draw is repeated or
 *   skipped even when an old leader's last step and the new leader's first one overlap.
 * Advisory locks belong to one database, so stations on different databases never compete.
 * In the embedded mode (SQLite: one process) the process is always the leader (`soleLeader`).
 */
import pg from 'pg';

export interface Leadership {
  /** Whether this process holds the lock now: its background jobs run only while it does. */
  isLeader(): boolean;
  /** `listener(true)` when this process becomes the leader, `listener(false)` when it stops being one. */
  onChange(listener: (leader: boolean) => void): void;
  /** Gives the lock up (if held) and stops competing. */
  close(): Promise<void>;
}

export interface LeaderLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** The advisory lock key of the engine: the same in every process ("PDENGINE" in ASCII, cut to 52 bits). */
export const LEADER_LOCK_KEY = 0x5044_454e_4749;
/** How often a follower tries to take the lock, and a leader checks its connection. */
export const RETRY_MS = 1000;
/** A leader whose connection does not answer within this is taken as gone. */
const CHECK_TIMEOUT_MS = 3000;

/** The leadership of a process that is alone on its database (embedded mode): always the leader. */
export const soleLeader: Leadership = {
  isLeader: () => true,
  onChange: () => undefined,
  close: async () => undefined,
};

/** The `application_name` of a process's lock connection: lets tests and operators see who leads. */
export function leaderConnectionName(pid = process.pid): string {
  return `paperdesk-leader:${pid}`;
}

/**
 * Starts competing for leadership on `databaseUrl`. The first try is awaited, so a process alone on its
 * database is the leader when this returns.
 */
export async function electLeader(options: {
  databaseUrl: string;
  log: LeaderLog;
  retryMs?: number;
}): Promise<Leadership> {
  const retryMs = options.retryMs ?? RETRY_MS;
  const listeners: ((leader: boolean) => void)[] = [];
  let client: pg.Client | null = null;
  let leader = false;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let round: Promise<void> = Promise.resolve();

  const setLeader = (value: boolean) => {
    if (leader === value) return;
    leader = value;
    options.log.info({ leader: value }, value ? 'became the leader' : 'stepped down');
    for (const listener of listeners) listener(value);
  };

  /** Drops the connection (and with it the lock, on the server's side) and steps down. */
  const drop = (reason: unknown) => {
    const old = client;
    client = null;
    if (leader) options.log.warn({ err: reason }, 'leader connection lost');
    setLeader(false);
    if (old) old.end().catch(() => undefined);
  };

  const connect = async (): Promise<pg.Client> => {
    const fresh = new pg.Client({
      connectionString: options.databaseUrl,
      application_name: leaderConnectionName(),
      keepAlive: true,
      connectionTimeoutMillis: CHECK_TIMEOUT_MS,
      query_timeout: CHECK_TIMEOUT_MS,
    });
    fresh.on('error', (error) => {
      if (client === fresh) drop(error);
    });
    fresh.on('end', () => {
      if (client === fresh) drop(new Error('connection ended'));
    });
    await fresh.connect();
    return fresh;
  };

  const tryOnce = async () => {
    if (closed) return;
    try {
      client ??= await connect();
      const current = client;
      if (leader) {
        await current.query('SELECT 1');
        return;
      }
      const result = await current.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::bigint) AS ok', [
        LEADER_LOCK_KEY,
      ]);
      if (closed || client !== current) {
        if (result.rows[0]?.ok) await current.end().catch(() => undefined);
        return;
      }
      if (result.rows[0]?.ok) setLeader(true);
    } catch (error) {
      drop(error);
    }
  };

  const schedule = () => {
    if (closed) return;
    timer = setTimeout(() => {
      round = tryOnce().finally(schedule);
    }, retryMs);
    timer.unref();
  };

  round = tryOnce();
  await round;
  schedule();

  return {
    isLeader: () => leader,
    onChange: (listener) => void listeners.push(listener),
    async close() {
      if (closed) return;
      closed = true;
      if (timer) clearTimeout(timer);
      await round.catch(() => undefined);
      const old = client;
      client = null;
      setLeader(false);
      if (old) {
        // Ending the session frees the lock; the unlock first says so explicitly.
        await old.query('SELECT pg_advisory_unlock_all()').catch(() => undefined);
        await old.end().catch(() => undefined);
      }
    },
  };
}

/**
 * Limits that must hold under concurrency, on SQLite and on PostgreSQL alike. Each check is one
 * conditional upsert (INSERT … ON CONFLICT DO UPDATE … WHERE … RETURNING): the row is locked while it
 * is updated, so two racing requests cannot both see "under the limit". No read-then-write.
 */
import { sql } from 'kysely';
import type { Db, DbOrTx } from './db/schema';
import { DAY_MS, MINUTE_MS, tzOffsetMinutes } from './time';

/** The local day number of instant `t` in `timeZone` (days since 1970-01-01 there). */
export function localDay(t: number, timeZone: string): number {
  return Math.floor((t + tzOffsetMinutes(timeZone, t) * MINUTE_MS) / DAY_MS);
}

/**
 * Takes the send slot of a phone and purpose: true when the last send is at least `intervalMs` ago
 * (or there was none), and records `now` as the last send; false otherwise, changing nothing.
 */
export async function takeSendSlot(
  db: DbOrTx,
  phone: string,
  purpose: string,
  now: number,
  intervalMs: number,
): Promise<boolean> {
  const cutoff = now - intervalMs;
  const result = await sql<{ last_sent_at: number }>`
    INSERT INTO sms_throttle (phone, purpose, last_sent_at) VALUES (${phone}, ${purpose}, ${now})
    ON CONFLICT (phone, purpose) DO UPDATE SET last_sent_at = excluded.last_sent_at
    WHERE sms_throttle.last_sent_at <= ${cutoff}
    RETURNING last_sent_at`.execute(db);
  return result.rows.length === 1;
}

/**
 * Counts one use of `key` in `period`, unless `limit` uses are counted already: true when counted,
 * false (and nothing changed) when the limit is reached.
 */
export async function takeCount(db: DbOrTx, key: string, period: number, limit: number): Promise<boolean> {
  const result = await sql<{ count: number }>`
    INSERT INTO rate_counters (key, period, count) VALUES (${key}, ${period}, 1)
    ON CONFLICT (key, period) DO UPDATE SET count = rate_counters.count + 1
    WHERE rate_counters.count < ${limit}
    RETURNING count`.execute(db);
  return result.rows.length === 1 && limit >= 1;
}

export interface LoginGuardSettings {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

export type LoginReservation = { ok: true } | { ok: false; lockedUntil: number };

/**
 * Reserves one password attempt for a phone before the password is checked. At most `maxFailures`
 * attempts are reserved per window, however many arrive at once; an expired window or lock starts
 * afresh. When refused, `lockedUntil` says until when (the window's end while attempts are in flight).
 */
export async function reserveLoginAttempt(
  db: Db,
  phone: string,
  now: number,
  s: LoginGuardSettings,
): Promise<LoginReservation> {
  const windowCutoff = now - s.windowMs;
  const result = await sql<{ attempts: number }>`
    INSERT INTO login_guards (phone, attempts, window_start, locked_until) VALUES (${phone}, 1, ${now}, 0)
    ON CONFLICT (phone) DO UPDATE SET
      attempts = CASE WHEN login_guards.locked_until > 0 OR login_guards.window_start <= ${windowCutoff}
        THEN 1 ELSE login_guards.attempts + 1 END,
      window_start = CASE WHEN login_guards.locked_until > 0 OR login_guards.window_start <= ${windowCutoff}
        THEN excluded.window_start ELSE login_guards.window_start END,
      locked_until = 0
    WHERE login_guards.locked_until <= ${now}
      AND (login_guards.locked_until > 0 OR login_guards.window_start <= ${windowCutoff}
        OR login_guards.attempts < ${s.maxFailures})
    RETURNING attempts`.execute(db);
  if (result.rows.length === 1) return { ok: true };
  const row = await db
    .selectFrom('login_guards')
    .select(['locked_until', 'window_start'])
    .where('phone', '=', phone)
    .executeTakeFirst();
  const lockedUntil = row
    ? row.locked_until > now
      ? row.locked_until
      : row.window_start + s.windowMs
    : now + s.lockMs;
  return { ok: false, lockedUntil };
}

/** A reserved attempt failed: when it was the last one allowed, the phone is locked for `lockMs`. */
export async function recordLoginFailure(
  db: Db,
  phone: string,
  now: number,
  s: LoginGuardSettings,
): Promise<void> {
  await sql`
    UPDATE login_guards SET locked_until = ${now + s.lockMs}
    WHERE phone = ${phone} AND attempts >= ${s.maxFailures} AND locked_until = 0`.execute(db);
}

/** A reserved attempt succeeded: the phone's failures are forgotten. */
export async function clearLoginFailures(db: Db, phone: string, now: number): Promise<void> {
  await db
    .updateTable('login_guards')
    .set({ attempts: 0, window_start: now, locked_until: 0 })
    .where('phone', '=', phone)
    .execute();
}

/** The operator (or a password reset) unlocks a phone, everywhere and for every address. */
export async function unlockLogin(db: Db, phone: string): Promise<void> {
  await db
    .deleteFrom('login_guards')
    .where((eb) => eb.or([eb('phone', '=', phone), eb('phone', 'like', `${phone}@%`)]))
    .execute();
}

/**
 * One limit of a call: `interval` allows one use per `intervalMs` of (name, subject) — the SMS resend slot of a
 * phone and purpose; `count` allows `limit` uses of `key` per `period` (a day or hour number the caller picks).
 */
export type Limit =
  | { kind: 'interval'; name: string; subject: string; now: number; intervalMs: number }
  | { kind: 'count'; key: string; period: number; limit: number };

export interface Taken {
  /** The index of the first limit refused (nothing was taken), or null when every limit was taken. */
  refused: number | null;
  /** Gives the takes back, for a call that failed after taking them (a no-op where `trx` rolls them back). */
  release(): Promise<void>;
}

/**
 * Where rate-limit counters live. The default counts in the station's database, inside the transaction of
 * the call (so a call that fails takes nothing); scale-out mode (REDIS_URL) counts in Redis, shared by every
 * process, all limits of a call at once or none (server/platform/redis.ts). Login lockouts stay in the
 * database on both: the operator clears them there, and every process shares the database anyway.
 */
export interface RateLimiter {
  /** Takes every limit in order, or none: see Taken. */
  take(trx: DbOrTx, limits: readonly Limit[]): Promise<Taken>;
}

const nothingToRelease = async () => undefined;

/** The database counters: each limit is one conditional upsert in `trx` (takeSendSlot, takeCount). */
export const databaseRateLimiter: RateLimiter = {
  async take(trx, limits) {
    for (const [index, limit] of limits.entries()) {
      const ok =
        limit.kind === 'interval'
          ? await takeSendSlot(trx, limit.subject, limit.name, limit.now, limit.intervalMs)
          : await takeCount(trx, limit.key, limit.period, limit.limit);
      // The caller fails its transaction on a refusal, which rolls back the limits taken before it.
      if (!ok) return { refused: index, release: nothingToRelease };
    }
    return { refused: null, release: nothingToRelease };
  },
};

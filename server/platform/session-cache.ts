/**
 * Live sessions remembered in memory by token hash (measured with npm run bench: reading the session row on every call was
 * about a tenth of an order's CPU). Only where this process is the only one that can end a session: on SQLite
 * without REDIS_URL (the embedded mode, one station process per data directory). In scale-out mode
 * (PostgreSQL, or REDIS_URL) several processes share the sessions and every call reads the row, so a logout
 * on one takes effect on all at once.
 *
 * Correctness:
 * - a logout, a password reset or change in this process forgets the sessions it ended before it answers,
 *   so the next call with such a token reads the row and is refused at once;
 * - a lookup that was reading the row while a session ended is not remembered (a generation counter), so a
 *   read that started before the revocation cannot bring the session back;
 * - expiry is checked against the station's clock on every call, as the row would be;
 * - an entry is trusted for at most SESSION_CACHE_TTL_MS of real time: anything that ends a session outside
 *   this process (a hand edit of the database) takes effect within that bound.
 */
import type { Db } from './db/schema';
import type { Station } from './station';

/** How long a remembered session is trusted before its row is read again (real time). */
export const SESSION_CACHE_TTL_MS = 10_000;
/** Most sessions remembered; beyond it the one remembered first is dropped (and read again when used). */
const MAX_ENTRIES = 10_000;

export interface CachedSession {
  sessionId: number;
  userId: number;
  /** The session row's expires_at (station clock). */
  expiresAt: number;
}

interface Entry extends CachedSession {
  /** When the row was read (real, monotonic ms). */
  readAt: number;
}

export class SessionCache {
  readonly #entries = new Map<string, Entry>();
  #generation = 0;

  constructor(
    private readonly ttlMs = SESSION_CACHE_TTL_MS,
    private readonly realNow: () => number = () => performance.now(),
  ) {}

  /** The remembered session of a token hash, if it was read less than the TTL ago. */
  get(tokenHash: string): CachedSession | undefined {
    const entry = this.#entries.get(tokenHash);
    if (entry === undefined) return undefined;
    if (this.realNow() - entry.readAt >= this.ttlMs) {
      this.#entries.delete(tokenHash);
      return undefined;
    }
    return entry;
  }

  /** Take before reading a session row; pass to remember() with what the read found. */
  generation(): number {
    return this.#generation;
  }

  /** Remembers a live session read from its row, unless a session ended since `generation` was taken. */
  remember(tokenHash: string, session: CachedSession, generation: number): void {
    if (generation !== this.#generation) return;
    if (this.#entries.size >= MAX_ENTRIES && !this.#entries.has(tokenHash)) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
    this.#entries.set(tokenHash, { ...session, readAt: this.realNow() });
  }

  /** Forgets one token's session (logout). */
  forgetToken(tokenHash: string): void {
    this.#generation++;
    this.#entries.delete(tokenHash);
  }

  /** Forgets every session of a user (password reset or change). */
  forgetUser(userId: number): void {
    this.#generation++;
    for (const [hash, entry] of this.#entries) if (entry.userId === userId) this.#entries.delete(hash);
  }

  /** Forgets a session that turned out expired or revoked. */
  drop(tokenHash: string): void {
    this.#entries.delete(tokenHash);
  }
}

const caches = new WeakMap<Db, SessionCache>();

/**
 * The session cache of the station's database, or null where other processes may end sessions too
 * (PostgreSQL or REDIS_URL: scale-out mode), so every call reads the row.
 */
export function sessionCacheOf(station: Station): SessionCache | null {
  if (station.dialect !== 'sqlite' || station.config.redisUrl) return null;
  let cache = caches.get(station.db);
  if (!cache) {
    cache = new SessionCache();
    caches.set(station.db, cache);
  }
  return cache;
}

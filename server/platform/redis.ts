/**
 * Scale-out mode's Redis (REDIS_URL): the live-tick fan-out between station processes (pub/sub) and the
 * rate-limit counters every process shares. Keys and channels are named after the station's database
 * (`paperdesk:<hash of host:port/database>:…`), so the processes of one database share them and stations of
 * different databases (tests, benches) can share one Redis without meeting.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Config } from '../config';
import type { Limit, RateLimiter, Taken } from './rate-limit';

/** The prefix of every key and channel of the stations on this configuration's database. */
export function redisNamespace(config: Pick<Config, 'databaseUrl' | 'sqlitePath'>): string {
  let identity = `sqlite:${config.sqlitePath}`;
  if (config.databaseUrl) {
    const url = new URL(config.databaseUrl);
    identity = `postgres:${url.hostname}:${url.port || '5432'}${url.pathname}`;
  }
  return `paperdesk:${createHash('sha256').update(identity).digest('hex').slice(0, 12)}:`;
}

/** Opens a connection and waits until it answers: a station with a bad REDIS_URL fails at start. */
export async function connectRedis(url: string): Promise<Redis> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2, connectTimeout: 5000 });
  // Errors while reconnecting are retried by the client; without a listener they would be thrown.
  redis.on('error', () => undefined);
  await redis.connect();
  return redis;
}

/** One second of the simulator: each watched code's quote as JSON ('' when its market is not in session). */
export interface TickMessage {
  second: number;
  quotes: Record<string, string>;
}

export interface TickBus {
  /** The leader publishes a second's quotes to every process. */
  publish(message: TickMessage): Promise<void>;
  /** Every process (the leader too) receives each published second. */
  onTick(handler: (message: TickMessage) => void): void;
  /** A process says its stream clients watch these codes (for INTEREST_TTL_MS, renewed while they do). */
  watch(codes: readonly string[]): Promise<void>;
  /** The codes some process's stream clients watch: what the leader quotes each second. */
  watched(): Promise<string[]>;
  /** Names what this process's clients watch now (the live stream does), for `renewInterest`. */
  interestIn(codes: () => readonly string[]): void;
  /** Says again what this process's clients watch (the `stream-interest` job, every few seconds). */
  renewInterest(): Promise<void>;
  /**
   * News of the leader's other jobs for every process's stream clients (a competition's new ranking): the
   * leader publishes a topic's text, every process (the leader too) hears it once it listens to the topic.
   */
  publishEvent(topic: string, text: string): Promise<void>;
  onEvent(topic: string, handler: (text: string) => void): Promise<void>;
  close(): Promise<void>;
}

/** How long a code stays watched after a process last said so; processes renew every few seconds. */
export const INTEREST_TTL_MS = 15_000;

function parseTick(text: string): TickMessage | null {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null) return null;
    const { second, quotes } = value as { second?: unknown; quotes?: unknown };
    if (typeof second !== 'number' || typeof quotes !== 'object' || quotes === null) return null;
    for (const v of Object.values(quotes)) if (typeof v !== 'string') return null;
    return { second, quotes: quotes as Record<string, string> };
  } catch {
    return null;
  }
}

/** The tick fan-out on `redis` (a second connection is opened for the subscription). */
export async function createTickBus(redis: Redis, namespace: string): Promise<TickBus> {
  const channel = `${namespace}ticks`;
  const interest = `${namespace}stream:codes`;
  const subscriber = redis.duplicate();
  subscriber.on('error', () => undefined);
  const handlers: ((message: TickMessage) => void)[] = [];
  const eventChannel = (topic: string) => `${namespace}event:${topic}`;
  const eventHandlers = new Map<string, ((text: string) => void)[]>();
  subscriber.on('message', (from: string, text: string) => {
    for (const handler of eventHandlers.get(from) ?? []) handler(text);
    if (from !== channel) return;
    const message = parseTick(text);
    if (message) for (const handler of handlers) handler(message);
  });
  await subscriber.subscribe(channel);
  let lastPrune = 0;
  let interestOf: () => readonly string[] = () => [];
  const bus: TickBus = {
    async publish(message) {
      await redis.publish(channel, JSON.stringify(message));
    },
    onTick(handler) {
      handlers.push(handler);
    },
    async watch(codes) {
      if (codes.length === 0) return;
      // Interest expires by real time: it only tidies codes nobody watches any more, never decides a price.
      const until = Date.now() + INTEREST_TTL_MS;
      await redis.zadd(interest, ...codes.flatMap((code) => [until, code]));
    },
    async watched() {
      const now = Date.now();
      if (now - lastPrune > INTEREST_TTL_MS) {
        lastPrune = now;
        await redis.zremrangebyscore(interest, '-inf', now);
      }
      return redis.zrangebyscore(interest, now, '+inf');
    },
    interestIn(codes) {
      interestOf = codes;
    },
    async renewInterest() {
      await bus.watch(interestOf());
    },
    async publishEvent(topic, text) {
      await redis.publish(eventChannel(topic), text);
    },
    async onEvent(topic, handler) {
      const name = eventChannel(topic);
      const listening = eventHandlers.get(name);
      if (listening) {
        listening.push(handler);
        return;
      }
      eventHandlers.set(name, [handler]);
      await subscriber.subscribe(name);
    },
    async close() {
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
  return bus;
}

/** Counters outlive their period by far; the values, not the expiry, decide (the clock may be pinned). */
const COUNTER_TTL_MS = 2 * 24 * 3_600_000;

/**
 * All limits of a call at once or none. KEYS: one per limit. ARGV: per limit its kind ('i' interval, 'c'
 * count) and two numbers (interval: now and intervalMs; count: limit and 0), then the keys' time to live.
 * Returns the 1-based index of the first refused limit, or 0 when every limit was taken.
 */
const TAKE_SCRIPT = `
local ttl = tonumber(ARGV[#ARGV])
for i, key in ipairs(KEYS) do
  local kind = ARGV[i * 3 - 2]
  local a = tonumber(ARGV[i * 3 - 1])
  local b = tonumber(ARGV[i * 3])
  local v = tonumber(redis.call('GET', key) or '')
  if kind == 'i' then
    if v and v > a - b then return i end
  elseif a < 1 or (v or 0) >= a then
    return i
  end
end
for i, key in ipairs(KEYS) do
  if ARGV[i * 3 - 2] == 'i' then
    redis.call('SET', key, ARGV[i * 3 - 1], 'PX', ttl)
  else
    redis.call('INCR', key)
    redis.call('PEXPIRE', key, ttl)
  end
end
return 0
`;

/** Gives back what TAKE_SCRIPT took: counts down by one; an interval slot still holding `now` is freed. */
const RELEASE_SCRIPT = `
for i, key in ipairs(KEYS) do
  if ARGV[i * 2 - 1] == 'i' then
    if redis.call('GET', key) == ARGV[i * 2] then redis.call('DEL', key) end
  elseif tonumber(redis.call('GET', key) or '0') > 0 then
    redis.call('DECR', key)
  end
end
return 0
`;

/** Rate-limit counters in Redis, shared by every process of the database (see RateLimiter). */
export function redisRateLimiter(redis: Redis, namespace: string): RateLimiter {
  const keyOf = (limit: Limit) =>
    limit.kind === 'interval'
      ? `${namespace}rl:slot:${limit.name}:${limit.subject}`
      : `${namespace}rl:count:${limit.key}:${limit.period}`;
  return {
    async take(_trx, limits): Promise<Taken> {
      if (limits.length === 0) return { refused: null, release: async () => undefined };
      const keys = limits.map(keyOf);
      const args = limits.flatMap((limit) =>
        limit.kind === 'interval'
          ? ['i', String(limit.now), String(limit.intervalMs)]
          : ['c', String(limit.limit), '0'],
      );
      const result = Number(await redis.eval(TAKE_SCRIPT, keys.length, ...keys, ...args, COUNTER_TTL_MS));
      if (result > 0) return { refused: result - 1, release: async () => undefined };
      let released = false;
      return {
        refused: null,
        async release() {
          if (released) return;
          released = true;
          const back = limits.flatMap((limit) =>
            limit.kind === 'interval' ? ['i', String(limit.now)] : ['c', ''],
          );
          await redis.eval(RELEASE_SCRIPT, keys.length, ...keys, ...back);
        },
      };
    },
  };
}

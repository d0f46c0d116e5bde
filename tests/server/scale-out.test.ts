/**
 * Scale-out mode: real station processes (`node --import tsx server/main.ts`, as deployed) on one
 * fresh PostgreSQL database and Redis. Users hit both processes at random and the ledger holds; a tick the
 * leader publishes reaches stream clients on both; rate limits count across both; SIGKILL of the leader
 * mid-stream hands over within 10 s and no second of the stream, no day close, deferred fee, stop or deposit
 * decision is lost or doubled.
 * The processes share a pinned clock: CLOCK_FILE (a test-only setting) holds the time, and the test moves it.
 * Runs wherever PostgreSQL (PAPERDESK_TEST_PG_URL, default postgres://postgres@127.0.0.1:5432/test) and Redis
 * (PAPERDESK_TEST_REDIS_URL, default redis://127.0.0.1:6379) answer; says so when skipped; with CI=true a
 * missing one fails the file instead.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Position, Recharge } from '../../src/shared/api/types';
import { DEFAULT_MARKET_SEED, DEFAULT_SETTINGS } from '../../server/config';
import { leaderConnectionName, LEADER_LOCK_KEY } from '../../server/platform/leader';
import { redisNamespace } from '../../server/platform/redis';
import { loadCatalogue } from '../../server/market/catalogue';
import { FixedClock } from '../../server/market/clock';
import { MarketService } from '../../server/market/market-service';
import { T0, api, data, failure, newRequestId, register, type Registered } from './helpers/station';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PG_URL = process.env.PAPERDESK_TEST_PG_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.PAPERDESK_TEST_REDIS_URL?.trim() || 'redis://127.0.0.1:6379';
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Why the suite cannot run here, or null when PostgreSQL and Redis both answer. */
async function unavailable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    return `PostgreSQL does not answer at ${PG_URL} (${error instanceof Error ? error.message : error})`;
  } finally {
    await client.end().catch(() => undefined);
  }
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 3000 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    return `Redis does not answer at ${REDIS_URL} (${error instanceof Error ? error.message : error})`;
  } finally {
    redis.disconnect();
  }
  return null;
}

const missing = await unavailable();
if (missing && process.env.CI !== 'true') {
  console.warn(`Scale-out suite SKIPPED: ${missing}. Start PostgreSQL and Redis to run it.`);
}

/** A small seeded generator: "at random", the same way every run. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

async function waitFor<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | null | undefined | false>,
) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Proc {
  name: string;
  child: ChildProcess;
  url: string;
}

interface StreamEvent {
  id: number;
  code: string;
  price: number;
}

/** An SSE client of /api/stream/quotes that keeps every quote event it receives. */
function openStream(base: string, codes: string, lastEventId?: number) {
  const events: StreamEvent[] = [];
  const controller = new AbortController();
  let ended = false;
  const done = (async () => {
    try {
      const res = await fetch(`${base}/api/stream/quotes?codes=${codes}`, {
        signal: controller.signal,
        headers: lastEventId === undefined ? {} : { 'last-event-id': String(lastEventId) },
      });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done: finished } = await reader.read();
        if (finished) break;
        buffer += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const id = /^id: (\d+)$/m.exec(block);
          const payload = /^data: (.*)$/m.exec(block);
          if (id && payload && /^event: quote$/m.test(block)) {
            const quote = JSON.parse(payload[1]!) as { code: string; price: number };
            events.push({ id: Number(id[1]), code: quote.code, price: quote.price });
          }
        }
      }
    } catch {
      // aborted, or the process died
    } finally {
      ended = true;
    }
  })();
  return {
    events,
    ids: (code: string) => events.filter((e) => e.code === code).map((e) => e.id),
    ended: () => ended,
    async close() {
      controller.abort();
      await done;
    },
  };
}

describe.skipIf(missing !== null && process.env.CI !== 'true')('scale-out mode (PostgreSQL + Redis)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'paperdesk-scale-out-'));
  const clockFile = path.join(dataDir, 'clock');
  const dbName = `pd_scale_${randomBytes(6).toString('hex')}`;
  const dbUrl = (() => {
    const url = new URL(PG_URL);
    url.pathname = `/${dbName}`;
    return url.toString();
  })();
  const namespace = redisNamespace({ databaseUrl: dbUrl, sqlitePath: '' });
  const procs: Proc[] = [];
  let db: pg.Client;
  let redis: Redis;
  let now = T0;
  // The test's own copy of the seeded market (same seed, calendars and settings as the stations).
  const market = new MarketService(
    loadCatalogue(),
    { seed: DEFAULT_MARKET_SEED, clockMode: 'always-open', settings: DEFAULT_SETTINGS },
    new FixedClock(T0),
  );

  const setClock = (t: number) => {
    now = t;
    writeFileSync(`${clockFile}.tmp`, String(t));
    renameSync(`${clockFile}.tmp`, clockFile);
  };

  async function start(name: string): Promise<Proc> {
    const inherited = { ...process.env };
    for (const key of ['DATABASE_URL', 'REDIS_URL', 'PORT', 'HOST', 'CLOCK_FILE']) delete inherited[key];
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: ROOT,
      env: {
        ...inherited,
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: dbUrl,
        REDIS_URL,
        CLOCK_FILE: clockFile,
        CLOCK_MODE: 'always-open',
        ORDERS_NEED_KYC: 'false',
        REVIEW_DELAY_S: '0',
        DATA_DIR: dataDir,
        STATIC_DIR: path.join(dataDir, 'no-app-build'),
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const early = (code: number | null, signal: string | null) =>
        reject(new Error(`station ${name} exited (${code ?? signal}) before listening`));
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /(http:\/\/[^\s/]+)\//.exec(out);
        if (match) {
          child.off('exit', early);
          resolve(match[1]!);
        }
      });
      child.once('exit', early);
    });
    const proc = { name, child, url };
    procs.push(proc);
    return proc;
  }

  /** SIGKILL, as a crash: no shutdown, no unlock; resolves once the process is gone. */
  async function kill(proc: Proc): Promise<void> {
    const exited = new Promise((resolve) => proc.child.once('exit', resolve));
    proc.child.kill('SIGKILL');
    await exited;
  }

  const alive = () => procs.filter((p) => p.child.exitCode === null && p.child.signalCode === null);

  /** The process holding the advisory lock now (by its lock connection's application_name), or null. */
  async function leader(): Promise<Proc | null> {
    const result = await db.query<{ name: string }>(
      `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = $1)
         AND (l.classid::bigint << 32) + l.objid::bigint = $2`,
      [dbName, LEADER_LOCK_KEY],
    );
    const names = result.rows.map((r) => r.name);
    expect(names.length, 'at most one leader').toBeLessThanOrEqual(1);
    return alive().find((p) => names.includes(leaderConnectionName(p.child.pid))) ?? null;
  }

  async function ledgerMismatches(): Promise<unknown[]> {
    const result = await db.query(
      `SELECT a.id, a.balance, COALESCE(SUM(l.amount), 0) AS sum FROM accounts a
       LEFT JOIN ledger_entries l ON l.account_id = a.id GROUP BY a.id, a.balance
       HAVING a.balance <> COALESCE(SUM(l.amount), 0)`,
    );
    return result.rows;
  }

  async function engineProgress(): Promise<number> {
    const result = await db.query<{ done_at: string }>(
      `SELECT done_at FROM engine_runs WHERE kind = 'engine_progress' AND key = 'ticks'`,
    );
    return Number(result.rows[0]?.done_at ?? 0);
  }

  beforeAll(async () => {
    if (missing) throw new Error(`CI=true: the scale-out suite cannot run: ${missing}`);
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE "${dbName}"`);
    } finally {
      await admin.end();
    }
    setClock(T0);
    await start('A');
    await start('B');
    db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    redis = new Redis(REDIS_URL);
    await waitFor('a leader', 10_000, leader);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(
      alive().map(async (p) => {
        const exited = new Promise((resolve) => p.child.once('exit', resolve));
        p.child.kill('SIGTERM');
        await exited;
      }),
    );
    await db?.end().catch(() => undefined);
    if (redis) {
      const keys = await redis.keys(`${namespace}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    }
    if (!missing) {
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).finally(() => admin.end());
    }
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('serves users on both processes at random; every balance is the sum of its entries', async () => {
    const random = lcg(14);
    const pick = () => procs[Math.floor(random() * 2)]!;
    const users: Registered[] = [];
    for (let i = 0; i < 6; i++) users.push(await register(api(pick().url)));
    // Each user's calls go to either process; the users run side by side.
    const plans = users.map(() =>
      Array.from({ length: 10 }, () => ({ op: Math.floor(random() * 4), proc: pick(), other: pick() })),
    );
    const deposits: number[] = [];
    await Promise.all(
      users.map(async (user, u) => {
        const open: number[] = [];
        for (const { op, proc, other } of plans[u]!) {
          const client = api(proc.url, user.token);
          if (op === 0 || (op === 1 && open.length === 0)) {
            const body = { code: 'AAPL', lots: 1, leverage: 1 + (u % 2), requestId: newRequestId() };
            // The same request on both processes at once: executed once, the same answer twice.
            const [a, b] = await Promise.all([
              client.post<Position>('/user/buy.do', body),
              api(other.url, user.token).post<Position>('/user/buy.do', body),
            ]);
            expect(data(b).id).toBe(data(a).id);
            open.push(data(a).id);
          } else if (op === 1) {
            data(await client.post('/user/sell.do', { positionId: open.pop(), requestId: newRequestId() }));
          } else if (op === 2) {
            const recharge = data(
              await client.post<Recharge>('/user/recharge/inMoney.do', {
                amount: 500,
                channelId: 1,
                requestId: newRequestId(),
              }),
            );
            deposits.push(recharge.id);
          } else {
            data(
              await client.post('/user/transAmt.do', {
                amount: 1000,
                from: 'main',
                to: 'index',
                requestId: newRequestId(),
              }),
            );
          }
        }
      }),
    );
    expect(deposits.length).toBeGreaterThan(0);
    // The leader's engine decides every deposit (REVIEW_DELAY_S=0), each once.
    await waitFor('deposits decided', 15_000, async () => {
      const pending = await db.query(`SELECT id FROM recharges WHERE status = 'pending'`);
      return pending.rows.length === 0;
    });
    const credited = await db.query<{ ref_id: number; n: string }>(
      `SELECT ref_id, COUNT(*) AS n FROM ledger_entries WHERE type = 'deposit' GROUP BY ref_id`,
    );
    expect(credited.rows.every((r) => Number(r.n) === 1)).toBe(true);
    expect(await ledgerMismatches()).toEqual([]);
  });

  it('delivers a tick published by the leader to stream clients on both processes', async () => {
    const published: { second: number; codes: string[] }[] = [];
    const listener = redis.duplicate();
    await listener.subscribe(`${namespace}ticks`);
    listener.on('message', (_channel: string, text: string) => {
      const message = JSON.parse(text) as { second: number; quotes: Record<string, string> };
      published.push({ second: message.second, codes: Object.keys(message.quotes) });
    });
    const streams = procs.map((p) => openStream(p.url, 'AAPL,600036'));
    try {
      const first = Math.floor(now / 1000);
      for (const s of streams)
        await waitFor('the first tick', 10_000, async () => s.ids('AAPL').includes(first));
      setClock(now + 1000);
      for (const s of streams) {
        await waitFor('the next tick', 10_000, async () => s.ids('AAPL').includes(first + 1));
      }
      // The same quote on both, and it came through Redis from the leader.
      const [a, b] = streams.map((s) => s.events.filter((e) => e.id === first + 1));
      expect(a).toEqual(b);
      expect(a!.map((e) => e.code).sort()).toEqual(['600036', 'AAPL']);
      expect(published.some((m) => m.second === first + 1 && m.codes.includes('AAPL'))).toBe(true);
      expect(a!.find((e) => e.code === 'AAPL')!.price).toBe(
        market.quote(market.get('AAPL'), (first + 1) * 1000).price,
      );
    } finally {
      await Promise.all(streams.map((s) => s.close()));
      await listener.quit();
    }
  });

  it('counts rate limits across both processes (in Redis)', async () => {
    const user = await register(api(procs[0]!.url));
    const on = (i: number) => api(procs[i % 2]!.url, user.token);
    for (let i = 0; i < 30; i++) data(await on(i).post('/user/service/send.do', { content: `hello ${i}` }));
    expect(failure(await on(0).post('/user/service/send.do', { content: 'one more' })).code).toBe(
      'RATE_LIMITED',
    );
    expect(failure(await on(1).post('/user/service/send.do', { content: 'one more' })).code).toBe(
      'RATE_LIMITED',
    );
    // Counted in Redis, not in the database's counters.
    const period = Math.floor(now / 3_600_000);
    expect(await redis.get(`${namespace}rl:count:service:${user.user.id}:${period}`)).toBe('30');
    expect((await db.query(`SELECT * FROM rate_counters WHERE key LIKE 'service:%'`)).rows).toEqual([]);
    // The SMS resend slot too: a code sent through one process, a second one at once through the other is refused.
    const phone = '13912345678';
    data(await api(procs[0]!.url).post('/api/sms/sendRegSms.do', { phone }));
    expect(failure(await api(procs[1]!.url).post('/api/sms/sendRegSms.do', { phone })).code).toBe(
      'RATE_LIMITED',
    );
    expect((await db.query(`SELECT * FROM sms_throttle WHERE phone = $1`, [phone])).rows).toEqual([]);
  });

  it('hands over within 10 s when the leader is killed mid-stream; no second lost or repeated', async () => {
    const streams = procs.map((p) => ({ proc: p, stream: openStream(p.url, 'AAPL') }));
    const begin = Math.floor(now / 1000);
    try {
      for (const { stream } of streams)
        await waitFor('a tick', 10_000, async () => stream.ids('AAPL').includes(begin));
      for (let i = 1; i <= 3; i++) {
        setClock(now + 1000);
        for (const { stream } of streams) {
          await waitFor('a tick', 10_000, async () => stream.ids('AAPL').includes(begin + i));
        }
      }
      const old = (await leader())!;
      setClock(now + 1000);
      const killedAt = Date.now();
      await kill(old);
      setClock(now + 1000);
      const next = await waitFor('a new leader', 10_000, leader);
      expect(next).not.toBe(old);
      expect(Date.now() - killedAt).toBeLessThan(10_000);
      setClock(now + 1000);
      const last = Math.floor(now / 1000);
      const survivor = streams.find((s) => s.proc !== old)!.stream;
      await waitFor('the survivor tick', 10_000, async () => survivor.ids('AAPL').includes(last));
      // Every second once, in order, from the first to the last.
      const expected = Array.from({ length: last - begin + 1 }, (_, i) => begin + i);
      expect(survivor.ids('AAPL')).toEqual(expected);
      // The killed process's client reconnects (as through a load balancer) to the survivor with its last id.
      const cut = streams.find((s) => s.proc === old)!.stream;
      await waitFor('the dead stream to end', 10_000, async () => cut.ended());
      const before = cut.ids('AAPL');
      const resumed = openStream(next.url, 'AAPL', before[before.length - 1]);
      try {
        await waitFor('the resumed ticks', 10_000, async () => resumed.ids('AAPL').includes(last));
        expect([...before, ...resumed.ids('AAPL')]).toEqual(expected);
      } finally {
        await resumed.close();
      }
    } finally {
      await Promise.all(streams.map((s) => s.stream.close()));
    }
    // Two processes again for what follows.
    await start('C');
  }, 60_000);

  it('goes on from the stored engine progress when the leader dies mid-step: nothing lost or doubled', async () => {
    const [first, second] = alive();
    const user = await register(api(first!.url));
    const client = api(second!.url, user.token);
    const buy = async (body: Record<string, unknown>) =>
      data(await client.post<Position>('/user/buy.do', { requestId: newRequestId(), ...body }));
    const leveraged = [
      await buy({ code: '600036', lots: 10, leverage: 2 }),
      await buy({ code: '00700', lots: 1, leverage: 5 }),
      await buy({ code: 'MSFT', lots: 10, leverage: 2 }),
    ];
    // A stop loss the seeded AAPL path crosses within the window (found by scanning it, never guessed).
    const p0 = market.quote(market.get('AAPL'), now).price;
    const firstClose = Math.floor(now / DAY) * DAY + DAY;
    const target = firstClose + DAY + 2 * 60 * MINUTE;
    let crossing: number | null = null;
    for (let t = Math.floor(now / MINUTE) * MINUTE + MINUTE; t <= target; t += MINUTE) {
      if (market.quote(market.get('AAPL'), t).price < p0) {
        crossing = t;
        break;
      }
    }
    expect(crossing, 'AAPL falls below its price within the window').not.toBeNull();
    const stopLoss = market.quote(market.get('AAPL'), crossing!).price;
    const stopped = await buy({ code: 'AAPL', lots: 5, leverage: 1, stopLoss });
    const deposit = data(
      await client.post<Recharge>('/user/recharge/inMoney.do', {
        amount: 800,
        channelId: 1,
        requestId: newRequestId(),
      }),
    );

    // Two day closes and the stop ahead; the leader starts the long step and is killed while at it.
    const progressBefore = await engineProgress();
    const old = (await leader())!;
    setClock(target);
    await waitFor('the step to start', 15_000, async () => (await engineProgress()) > progressBefore);
    const killedAt = Date.now();
    await kill(old);
    const progressAtKill = await engineProgress();
    console.info(
      `scale-out: leader killed with the engine at ${new Date(progressAtKill).toISOString()}, ` +
        `target ${new Date(target).toISOString()}`,
    );
    const next = await waitFor('a new leader', 10_000, leader);
    expect(next).not.toBe(old);
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    await waitFor(
      'the engine to catch up',
      30_000,
      async () => (await engineProgress()) >= Math.floor(target / MINUTE) * MINUTE,
    );

    // Each leveraged position paid its deferred fee once per close: two closes, two entries.
    const fees = await db.query<{ ref_id: string; time: string }>(
      `SELECT ref_id, time FROM ledger_entries WHERE type = 'deferred_fee' AND user_id = $1 ORDER BY ref_id, time`,
      [user.user.id],
    );
    for (const p of leveraged) {
      expect(fees.rows.filter((r) => Number(r.ref_id) === p.id).map((r) => Number(r.time))).toEqual([
        firstClose,
        firstClose + DAY,
      ]);
    }
    const closes = await db.query(`SELECT key FROM engine_runs WHERE kind = 'deferred_fee'`);
    expect(closes.rows).toHaveLength(6); // cn, hk and us, two days
    // The stop closed its position once, at the crossing minute at the latest.
    const closed = await db.query<{ state: string; closed_at: string; close_reason: string }>(
      `SELECT state, closed_at, close_reason FROM positions WHERE id = $1`,
      [stopped.id],
    );
    expect(closed.rows[0]).toMatchObject({ state: 'closed', close_reason: 'stop_loss' });
    expect(Number(closed.rows[0]!.closed_at)).toBeLessThanOrEqual(crossing!);
    const sells = await db.query(
      `SELECT id FROM ledger_entries WHERE type = 'sell' AND ref_type = 'position' AND user_id = $1`,
      [user.user.id],
    );
    expect(sells.rows).toHaveLength(1);
    // The deposit was decided once.
    const decided = await db.query(`SELECT id FROM ledger_entries WHERE type = 'deposit' AND user_id = $1`, [
      user.user.id,
    ]);
    expect(decided.rows).toHaveLength(1);
    expect((await db.query(`SELECT status FROM recharges WHERE id = $1`, [deposit.id])).rows).toEqual([
      { status: 'success' },
    ]);
    expect(await ledgerMismatches()).toEqual([]);
  }, 90_000);
});

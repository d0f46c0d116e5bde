/**
 * Orders per second and latency in scale-out mode — two station processes on one PostgreSQL database
 * and Redis, the users' calls spread over both as a load balancer would — side by side with one process on
 * SQLite, in one run, with the client fleet of tests/bench/orders.ts (USERS users each looping buy → sell of
 * a US stock for SECONDS seconds, `CLOCK_MODE=always-open`). Everything shares this machine's cores, so the
 * figures compare the modes here, not what N machines would do.
 * PostgreSQL: PAPERDESK_TEST_PG_URL (default postgres://postgres@127.0.0.1:5432/test); Redis:
 * PAPERDESK_TEST_REDIS_URL (default redis://127.0.0.1:6379); scale-out is skipped, and says so, when either
 * does not answer. BENCH_ORDERS_SECONDS and BENCH_ORDERS_USERS override the defaults.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { redisNamespace } from '../../server/platform/redis';
import {
  pair,
  percentile,
  registerUsers,
  resetAgent,
  startStation,
  stopStation,
  withPgDatabase,
} from './orders';

const USERS = Number(process.env.BENCH_ORDERS_USERS ?? 50);
const SECONDS = Number(process.env.BENCH_ORDERS_SECONDS ?? 10);
const WARMUP_PAIRS = 5;
const CODES = ['AAPL', 'MSFT', 'GOOGL', 'AMZN', 'NVDA'];
const PG_URL = process.env.PAPERDESK_TEST_PG_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.PAPERDESK_TEST_REDIS_URL?.trim() || 'redis://127.0.0.1:6379';

interface Result {
  label: string;
  ordersPerSecond: number;
  p50: number;
  p99: number;
  orders: number;
}

/**
 * The fleet against `bases`: users register on the first process (sessions live in the shared database) and
 * user u trades through bases[u % n].
 */
async function measure(label: string, bases: string[]): Promise<Result> {
  const tokens = (await registerUsers(bases[0]!, USERS)).map((token, u) => ({
    token,
    base: bases[u % bases.length]!,
  }));
  await Promise.all(
    tokens.map(async ({ base, token }, u) => {
      for (let i = 0; i < WARMUP_PAIRS; i++) await pair(base, token, CODES[u % CODES.length]!);
    }),
  );
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + SECONDS * 1000;
  await Promise.all(
    tokens.map(async ({ base, token }, u) => {
      while (performance.now() < until)
        latencies.push(...(await pair(base, token, CODES[u % CODES.length]!)));
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    label,
    ordersPerSecond: latencies.length / elapsed,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    orders: latencies.length,
  };
}

async function stopAll(children: ChildProcess[]): Promise<void> {
  resetAgent();
  await Promise.all(children.map(stopStation));
}

/** Why scale-out cannot be measured here, or null. */
async function unavailable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
  } catch {
    return `PostgreSQL does not answer at ${PG_URL}`;
  } finally {
    await client.end().catch(() => undefined);
  }
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 3000 });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
  } catch {
    return `Redis does not answer at ${REDIS_URL}`;
  } finally {
    redis.disconnect();
  }
  return null;
}

export async function benchScaleOut(): Promise<void> {
  const results: Result[] = [];
  const dataDir = mkdtempSync(path.join(tmpdir(), 'paperdesk-bench-scale-'));
  try {
    const env = { DATA_DIR: dataDir, STATIC_DIR: path.join(dataDir, 'none') };
    const one = await startStation(env);
    try {
      results.push(await measure('one process, SQLite', [one.base]));
    } finally {
      await stopAll([one.child]);
    }
    const missing = await unavailable();
    if (missing) {
      console.log(`scale-out (two processes, PostgreSQL + Redis): skipped, ${missing}`);
    } else {
      await withPgDatabase(PG_URL, async (url) => {
        const scaled = { ...env, DATABASE_URL: url, REDIS_URL };
        const children: ChildProcess[] = [];
        try {
          const a = await startStation(scaled);
          children.push(a.child);
          const b = await startStation(scaled);
          children.push(b.child);
          results.push(await measure('two processes, PostgreSQL + Redis', [a.base, b.base]));
        } finally {
          await stopAll(children);
          const redis = new Redis(REDIS_URL);
          const keys = await redis.keys(`${redisNamespace({ databaseUrl: url, sqlitePath: '' })}*`);
          if (keys.length > 0) await redis.del(...keys);
          redis.disconnect();
        }
      });
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(
    `scale-out orders (buy then sell, ${USERS} users, ${SECONDS} s each; load average ${loadavg()[0]!.toFixed(1)}):`,
  );
  for (const r of results) {
    console.log(
      `  ${r.label.padEnd(36)} ${r.ordersPerSecond.toFixed(0).padStart(6)} orders/s  ` +
        `p50 ${r.p50.toFixed(1).padStart(6)} ms  p99 ${r.p99.toFixed(1).padStart(6)} ms  (${r.orders} orders)`,
    );
  }
}

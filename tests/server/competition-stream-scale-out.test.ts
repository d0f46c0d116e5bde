/**
 * The competition stream in scale-out mode: two real station processes (`node --import tsx server/main.ts`)
 * on one fresh PostgreSQL database and Redis, sharing a pinned clock (CLOCK_FILE). Only the leader ranks;
 * a client of either process gets each new ranking through the bus, and the leaderboard read on the event
 * from the process that did not rank shows that ranking (its copy of the older one dropped); the frozen
 * event reaches both and ends their streams.
 * Runs wherever PostgreSQL (PAPERDESK_TEST_PG_URL) and Redis (PAPERDESK_TEST_REDIS_URL, default
 * redis://127.0.0.1:6379) answer; says so when skipped; with CI=true a missing one fails the file instead.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Competition, Leaderboard } from '../../src/shared/api/competitions';
import { leaderConnectionName } from '../../server/platform/leader';
import { redisNamespace } from '../../server/platform/redis';
import { T0, api, data, newRequestId, register } from './helpers/station';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PG_URL = process.env.PAPERDESK_TEST_PG_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.PAPERDESK_TEST_REDIS_URL?.trim() || 'redis://127.0.0.1:6379';
const HOUR = 3_600_000;
const START = T0 + HOUR;
const END = T0 + 2 * HOUR;

async function unavailable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
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
  console.warn(`Competition scale-out suite SKIPPED: ${missing}. Start PostgreSQL and Redis to run it.`);
}

/** Polls `probe` until it answers; a guard against a hang, not a measure of speed. */
async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>): Promise<T> {
  const until = Date.now() + 15_000;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A competition stream's `ranking` events' takenAt and frozen, and whether it ended. */
function openStream(url: string) {
  const events: { takenAt: number; frozen: boolean }[] = [];
  const controller = new AbortController();
  let ended = false;
  const done = (async () => {
    try {
      const res = await fetch(url, { signal: controller.signal });
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
          const payload = /^data: (.*)$/m.exec(block);
          if (payload && /^event: ranking$/m.test(block)) {
            const { takenAt, frozen } = JSON.parse(payload[1]!) as { takenAt: number; frozen: boolean };
            events.push({ takenAt, frozen });
          }
        }
      }
    } catch {
      // aborted
    } finally {
      ended = true;
    }
  })();
  return {
    events,
    ended: () => ended,
    has: (takenAt: number) => events.some((e) => e.takenAt === takenAt),
    async close() {
      controller.abort();
      await done;
    },
  };
}

describe.skipIf(missing !== null && process.env.CI !== 'true')('competition stream, scale-out mode', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'paperdesk-comp-scale-'));
  const clockFile = path.join(dataDir, 'clock');
  const dbName = `pd_comp_${randomBytes(6).toString('hex')}`;
  const dbUrl = (() => {
    const url = new URL(PG_URL);
    url.pathname = `/${dbName}`;
    return url.toString();
  })();
  const namespace = redisNamespace({ databaseUrl: dbUrl, sqlitePath: '' });
  const children: ChildProcess[] = [];
  const urls: string[] = [];
  let db: pg.Client;
  let redis: Redis;

  const setClock = (t: number) => {
    writeFileSync(`${clockFile}.tmp`, String(t));
    renameSync(`${clockFile}.tmp`, clockFile);
  };

  async function start(): Promise<string> {
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
        DATA_DIR: dataDir,
        STATIC_DIR: path.join(dataDir, 'no-app-build'),
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    return new Promise<string>((resolve, reject) => {
      let out = '';
      child.once('exit', (code, signal) => reject(new Error(`station exited (${code ?? signal})`)));
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /(http:\/\/[^\s/]+)\//.exec(out);
        if (match) resolve(match[1]!);
      });
    });
  }

  /** The process that did not rank: the one whose lock connection is not the leader's. */
  async function follower(): Promise<string> {
    const result = await db.query<{ name: string }>(
      `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
       WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = $1)`,
      [dbName],
    );
    const names = result.rows.map((r) => r.name);
    const index = children.findIndex((c) => !names.includes(leaderConnectionName(c.pid)));
    return urls[index]!;
  }

  beforeAll(async () => {
    if (missing) throw new Error(`CI=true: the scale-out suite cannot run: ${missing}`);
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${dbName}"`).finally(() => admin.end());
    setClock(T0);
    urls.push(await start(), await start());
    db = new pg.Client({ connectionString: dbUrl });
    await db.connect();
    redis = new Redis(REDIS_URL);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(
      children
        .filter((c) => c.exitCode === null && c.signalCode === null)
        .map(async (c) => {
          const exited = new Promise((resolve) => c.once('exit', resolve));
          c.kill('SIGTERM');
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

  it("delivers the leader's rankings to clients of both processes through the bus, the frozen one last", async () => {
    const client = api(urls[0]!);
    const creator = await register(client);
    const competition = data(
      await creator.client.post<Competition>('/user/competition/create.do', {
        name: 'Two-process cup',
        startAt: START,
        endAt: END,
        startingCash: 10_000,
        markets: 'a',
        maxLeverage: 1,
        allowShort: false,
        visibility: 'public',
        requestId: newRequestId(),
      }),
    );
    const player = await register(api(urls[1]!));
    data(
      await player.client.post('/user/competition/join.do', {
        id: competition.id,
        requestId: newRequestId(),
      }),
    );
    const published: number[] = [];
    const listener = redis.duplicate();
    listener.on('message', (_channel: string, text: string) => {
      published.push((JSON.parse(text) as { takenAt: number }).takenAt);
    });
    await listener.subscribe(`${namespace}event:competition-ranking`);
    const streams = urls.map((url) => openStream(`${url}/api/stream/competition?id=${competition.id}`));
    try {
      setClock(START);
      for (const s of streams) await waitFor('the first ranking', async () => s.has(START));
      const other = api(await follower());
      // Read on the event, the process that did not rank serves the new ranking, not its older copy.
      const board = () => other.get<Leaderboard>('/api/competition/leaderboard.do', { id: competition.id });
      expect(data(await board())).toMatchObject({ takenAt: START, total: 1 });
      setClock(START + 1000);
      for (const s of streams) await waitFor('the next ranking', async () => s.has(START + 1000));
      expect(data(await board())).toMatchObject({ takenAt: START + 1000 });
      setClock(END + 1000);
      for (const s of streams) await waitFor('the frozen ranking', async () => s.ended());
      for (const s of streams) {
        expect(s.events.map((e) => e.takenAt)).toEqual([START, START + 1000, END]);
        expect(s.events.at(-1)).toEqual({ takenAt: END, frozen: true });
      }
      expect(published).toEqual([START, START + 1000, END]);
      expect(data(await board())).toMatchObject({ takenAt: END, frozen: true });
    } finally {
      await Promise.all(streams.map((s) => s.close()));
      await listener.quit();
    }
  }, 60_000);
});

/**
 * Orders per second over real HTTP, market buy then sell, like a fleet of clients: USERS users each
 * loop buy → sell of one US stock (T+0, no price limit; CLOCK_MODE=always-open) for SECONDS seconds.
 * The station is the real entry point (server/main.ts) in its own process, as deployed; the clients share
 * the machine's cores with it, so the figures are conservative. Target on SQLite: ≥ 2,000 orders/s with
 * p99 < 50 ms. PostgreSQL runs too when PAPERDESK_TEST_PG_URL names an admin connection.
 * Two measures on each database:
 * - closed loop: the users loop as fast as the station answers, which gives the most orders per second (and a
 *   latency that is mostly the queue of 50 calls in flight);
 * - open loop: buy → sell pairs start on a fixed schedule, BENCH_ORDERS_RATE orders per second (2,000 by
 *   default: the target), whatever the answers; each latency counts from the moment its order was due, so a
 *   station that falls behind shows it (no coordinated omission). This is the target's "2,000/s with p99 <
 *   50 ms". Skipped on a database whose closed-loop rate is below the offered rate (its queue would only grow).
 * BENCH_ORDERS_SECONDS and BENCH_ORDERS_USERS override the defaults; BENCH_ORDERS_PG=0 skips PostgreSQL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const USERS = Number(process.env.BENCH_ORDERS_USERS ?? 50);
const SECONDS = Number(process.env.BENCH_ORDERS_SECONDS ?? 10);
const RATE = Number(process.env.BENCH_ORDERS_RATE ?? 2000);
const WARMUP_PAIRS = 5;
const CODES = ['AAPL', 'MSFT', 'GOOGL', 'AMZN', 'NVDA'];

interface Answer {
  status: number;
  code?: string;
  data?: { id?: number; token?: string; demoCode?: string };
}

/** Keep-alive connections of the client fleet; one per station, closed with it. */
let agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/** One form-encoded POST over a keep-alive connection (lighter on the client than fetch). */
export function post(
  base: string,
  p: string,
  body: Record<string, string | number>,
  token?: string,
): Promise<Answer> {
  const payload = new URLSearchParams(
    Object.entries(body).map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${p}`,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(payload),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString()) as Answer);
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * A station process as `npm start` runs it (tsx server/main.ts), always open and without KYC unless `env`
 * says otherwise; answers once it listens, or with `readyLog`, once its log has also shown that line.
 */
export async function startStation(
  env: Record<string, string>,
  options: { readyLog?: string } = {},
): Promise<{ base: string; child: ChildProcess }> {
  const { readyLog } = options;
  const inherited = { ...process.env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'PORT', 'HOST']) delete inherited[name];
  // BENCH_ORDERS_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", to profile the station.
  const nodeArgs = (process.env.BENCH_ORDERS_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...inherited,
      PORT: '0',
      HOST: '127.0.0.1',
      CLOCK_MODE: 'always-open',
      ORDERS_NEED_KYC: 'false',
      LOG_LEVEL: readyLog ? 'info' : 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', readyLog ? 'pipe' : 'inherit'],
  });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    let log = '';
    let url: string | null = null;
    let ready = readyLog === undefined;
    const settle = () => {
      if (url === null || !ready) return;
      child.off('exit', early);
      resolve(url);
    };
    const early = (code: number | null, signal: string | null) =>
      reject(new Error(`station exited (${code ?? signal}) before it was ready\n${log.slice(-2000)}`));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      url = /(http:\/\/[^\s/]+)\//.exec(out)?.[1] ?? null;
      settle();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-100_000);
      ready ||= log.includes(readyLog!);
      settle();
    });
    child.once('exit', early);
  });
  return { base, child };
}

export async function stopStation(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export async function registerUsers(base: string, count: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const phone = `137${String(process.pid % 1000).padStart(3, '0')}${String(i).padStart(5, '0')}`;
    const sms = await post(base, '/api/sms/sendRegSms.do', { phone });
    const reg = await post(base, '/api/user/reg.do', {
      phone,
      password: 'bench123',
      code: sms.data?.demoCode ?? '',
    });
    if (reg.status !== 0 || !reg.data?.token) throw new Error(`registration failed: ${JSON.stringify(reg)}`);
    tokens.push(reg.data.token);
  }
  return tokens;
}

let requestCounter = 0;
const requestId = () => `bench-${process.pid}-${(requestCounter += 1)}`;

/**
 * One buy → sell pair; returns each order's latency in ms. `due`: when the buy was due (open loop), else now.
 */
export async function pair(
  base: string,
  token: string,
  code: string,
  due = performance.now(),
): Promise<[number, number]> {
  let start = due;
  const bought = await post(
    base,
    '/user/buy.do',
    { code, lots: 1, leverage: 1, requestId: requestId() },
    token,
  );
  const buyMs = performance.now() - start;
  if (bought.status !== 0 || bought.data?.id === undefined)
    throw new Error(`buy failed: ${JSON.stringify(bought)}`);
  start = performance.now();
  const sold = await post(
    base,
    '/user/sell.do',
    { positionId: bought.data.id, requestId: requestId() },
    token,
  );
  if (sold.status !== 0) throw new Error(`sell failed: ${JSON.stringify(sold)}`);
  return [buyMs, performance.now() - start];
}

/** Closes the fleet's keep-alive connections (after a run against stations that are stopped). */
export function resetAgent(): void {
  agent.destroy();
  agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
}

/** CPU time (user + system) the process has used so far, in ms; null where /proc is not there. */
export function cpuMs(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/**
 * Open loop: a buy → sell pair is due every 2,000 / RATE ms for SECONDS seconds, sent when due (the users in
 * turn); returns the orders answered per second and each order's latency from when it was due.
 */
async function openLoop(base: string, tokens: string[]): Promise<{ perSecond: number; latencies: number[] }> {
  const pairsDue = Math.round((RATE / 2) * SECONDS);
  const every = 2000 / RATE;
  const latencies: number[] = [];
  const running: Promise<void>[] = [];
  const started = performance.now();
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      for (; sent < pairsDue && started + sent * every <= now; sent++) {
        const u = sent % tokens.length;
        running.push(
          pair(base, tokens[u]!, CODES[u % CODES.length]!, started + sent * every).then((ms) => {
            latencies.push(...ms);
          }),
        );
      }
      if (sent < pairsDue) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await Promise.all(running);
  return { perSecond: latencies.length / ((performance.now() - started) / 1000), latencies };
}

/**
 * Closed loop: every user loops buy → sell as fast as the station answers for `seconds`; each order's
 * latency (unsorted) and the seconds it took.
 */
export async function closedLoop(
  base: string,
  tokens: string[],
  seconds = SECONDS,
): Promise<{ latencies: number[]; elapsed: number }> {
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    tokens.map(async (token, u) => {
      while (performance.now() < until)
        latencies.push(...(await pair(base, token, CODES[u % CODES.length]!)));
    }),
  );
  return { latencies, elapsed: (performance.now() - started) / 1000 };
}

/** Every user's warm-up pairs (the first orders of a process are slower). */
export async function warmUp(base: string, tokens: string[]): Promise<void> {
  await Promise.all(
    tokens.map(async (token, u) => {
      for (let i = 0; i < WARMUP_PAIRS; i++) await pair(base, token, CODES[u % CODES.length]!);
    }),
  );
}

async function measure(label: string, env: Record<string, string>): Promise<void> {
  // Measured once the station has built the market's history in the background (server/main.ts): the
  // steady state, not the first seconds after a start.
  const { base, child } = await startStation(env, { readyLog: 'market history warmed up' });
  try {
    const tokens = await registerUsers(base, USERS);
    await warmUp(base, tokens);
    const cpuBefore = cpuMs(child.pid);
    const { latencies, elapsed } = await closedLoop(base, tokens);
    const cpuAfter = cpuMs(child.pid);
    // The station's own CPU per order: what load on the shared machine does not change much.
    const cpu =
      cpuBefore === null || cpuAfter === null
        ? ''
        : `; station CPU ${((cpuAfter - cpuBefore) / latencies.length).toFixed(2)} ms per order`;
    // The machine's 1-minute load average: on a shared machine, figures at a load above its cores are low.
    const load = `; load average ${loadavg()[0]!.toFixed(1)}`;
    latencies.sort((a, b) => a - b);
    const closedRate = latencies.length / elapsed;
    console.log(
      `orders (${label}, closed loop): ${closedRate.toFixed(0)} orders/s (buy then sell, ${USERS} users, ` +
        `${latencies.length} orders in ${elapsed.toFixed(1)} s); latency p50 ${percentile(latencies, 0.5).toFixed(1)} ms, ` +
        `p99 ${percentile(latencies, 0.99).toFixed(1)} ms${cpu}${load}`,
    );
    if (closedRate < RATE) {
      console.log(`orders (${label}, open loop at ${RATE}/s): skipped, above the closed-loop rate`);
      return;
    }
    const open = await openLoop(base, tokens);
    open.latencies.sort((a, b) => a - b);
    console.log(
      `orders (${label}, open loop at ${RATE}/s): ${open.perSecond.toFixed(0)} orders/s answered; latency from ` +
        `when due p50 ${percentile(open.latencies, 0.5).toFixed(1)} ms, p99 ${percentile(open.latencies, 0.99).toFixed(1)} ms ` +
        `(target p99 < 50 ms: ${percentile(open.latencies, 0.99) < 50 ? 'met' : 'NOT met'}); ` +
        `load average ${loadavg()[0]!.toFixed(1)}`,
    );
  } finally {
    agent.destroy();
    agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
    await stopStation(child);
  }
}

/** A fresh PostgreSQL database for the run, dropped afterwards. */
export async function withPgDatabase(adminUrl: string, run: (url: string) => Promise<void>): Promise<void> {
  const name = `pd_bench_${randomBytes(6).toString('hex')}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  try {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    await run(url.toString());
  } finally {
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

export async function benchOrders(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'paperdesk-bench-orders-'));
  try {
    await measure('SQLite', { DATA_DIR: dataDir, STATIC_DIR: path.join(dataDir, 'none') });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const pgAdmin = process.env.PAPERDESK_TEST_PG_URL?.trim();
  if (!pgAdmin || process.env.BENCH_ORDERS_PG === '0') {
    console.log(
      `orders (PostgreSQL): skipped, ${pgAdmin ? 'BENCH_ORDERS_PG=0' : 'PAPERDESK_TEST_PG_URL is not set'}`,
    );
    return;
  }
  const pgDir = mkdtempSync(path.join(tmpdir(), 'paperdesk-bench-orders-pg-'));
  try {
    await withPgDatabase(pgAdmin, (url) =>
      measure('PostgreSQL', { DATA_DIR: pgDir, STATIC_DIR: path.join(pgDir, 'none'), DATABASE_URL: url }),
    );
  } finally {
    rmSync(pgDir, { recursive: true, force: true });
  }
}

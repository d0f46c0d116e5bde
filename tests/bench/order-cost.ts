/**
 * What one order costs the station on SQLite, without HTTP: 50 users buy then sell a US stock in a closed
 * loop, calling the trading service in process (server/trading: the same validation of the market, the
 * same transactions, group commit included). It prints the CPU per order and, from a count kept around
 * every better-sqlite3 statement, how many statements an order runs and the time SQLite spends in them
 * (the COMMITs included), each statement's share listed. This is the floor under `npm run bench -- floor`'s
 * orders: an order can be no cheaper over HTTP than its statements and its own work here.
 * BENCH_SECONDS sets the measured loop's length (5 s by default, after a 2 s warm-up).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { buildServer } from '../../server/app';
import { loadConfig } from '../../server/config';
import { buy, sell } from '../../server/trading/trading';

const USERS = 50;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CODES = ['AAPL', 'MSFT', 'GOOGL', 'AMZN', 'NVDA'];

interface Tally {
  n: number;
  us: number;
}

/** Counts every statement better-sqlite3 runs (and its time) from now on, by its SQL. */
function tallyStatements(): Map<string, Tally> {
  const tallies = new Map<string, Tally>();
  const add = (sql: string, started: bigint) => {
    const key = sql.replace(/\s+/g, ' ').slice(0, 72);
    const tally = tallies.get(key) ?? { n: 0, us: 0 };
    tally.n++;
    tally.us += Number(process.hrtime.bigint() - started) / 1000;
    tallies.set(key, tally);
  };
  const probe = new Database(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
  probe.close();
  for (const method of ['run', 'all', 'get', 'iterate']) {
    const original = statement[method] as (...args: unknown[]) => unknown;
    statement[method] = function (this: { source: string }, ...args: unknown[]) {
      const started = process.hrtime.bigint();
      try {
        return original.apply(this, args);
      } finally {
        add(this.source, started);
      }
    };
  }
  const database = Database.prototype as unknown as Record<string, unknown>;
  const exec = database.exec as (sql: string) => unknown;
  database.exec = function (this: unknown, sql: string) {
    const started = process.hrtime.bigint();
    try {
      return exec.call(this, sql);
    } finally {
      add(sql, started);
    }
  };
  return tallies;
}

export async function benchOrderCost(): Promise<void> {
  const tallies = tallyStatements();
  const dir = mkdtempSync(path.join(tmpdir(), 'paperdesk-order-cost-'));
  const config = loadConfig({
    DATA_DIR: dir,
    STATIC_DIR: path.join(dir, 'no-app'),
    CLOCK_MODE: 'always-open',
    ORDERS_NEED_KYC: 'false',
    LOG_LEVEL: 'silent',
  });
  const app = await buildServer(config);
  try {
    await app.ready();
    const users: number[] = [];
    for (let i = 0; i < USERS; i++) {
      const phone = `139${String(20_000_000 + i)}`;
      const sms = await app.inject({ method: 'POST', url: '/api/sms/sendRegSms.do', payload: { phone } });
      const code = (JSON.parse(sms.body) as { data: { demoCode: string } }).data.demoCode;
      const reg = await app.inject({
        method: 'POST',
        url: '/api/user/reg.do',
        payload: { phone, password: 'pass1234', code },
      });
      users.push((JSON.parse(reg.body) as { data: { user: { id: number } } }).data.user.id);
    }
    const requestId = () => randomBytes(8).toString('hex');
    const loop = async (seconds: number) => {
      let orders = 0;
      const until = performance.now() + seconds * 1000;
      const cpu = process.cpuUsage();
      const started = performance.now();
      await Promise.all(
        users.map(async (userId, u) => {
          while (performance.now() < until) {
            const code = CODES[u % CODES.length]!;
            const p = await buy(app.station, userId, { code, lots: 1, leverage: 1, requestId: requestId() });
            await sell(app.station, userId, { positionId: p.id, requestId: requestId() });
            orders += 2;
          }
        }),
      );
      const used = process.cpuUsage(cpu);
      return { orders, elapsed: (performance.now() - started) / 1000, cpuUs: used.user + used.system };
    };
    await loop(2);
    tallies.clear();
    const { orders, elapsed, cpuUs } = await loop(SECONDS);
    const rows = [...tallies.entries()].sort((a, b) => b[1].us - a[1].us);
    const statements = rows.reduce((sum, [, t]) => sum + t.n, 0);
    const sqliteUs = rows.reduce((sum, [, t]) => sum + t.us, 0);
    console.log(
      `order cost (SQLite, in process, no HTTP): ${(orders / elapsed).toFixed(0)} orders/s, ` +
        `${(cpuUs / orders).toFixed(0)} µs CPU per order; ${(statements / orders).toFixed(1)} statements per order ` +
        `taking ${(sqliteUs / orders).toFixed(0)} µs in SQLite (the commits included); load average ` +
        `${loadavg()[0]!.toFixed(1)}`,
    );
    for (const [sql, t] of rows.slice(0, 16)) {
      console.log(
        `  ${(t.us / orders).toFixed(1).padStart(6)} µs/order  ×${(t.n / orders).toFixed(2)}  ${sql}`,
      );
    }
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

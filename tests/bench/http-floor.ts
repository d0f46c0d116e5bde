/**
 * The station against Fastify's own floor, in the same run on the same machine: a bare Fastify
 * hello-world (bare-fastify.ts) and the station (server/main.ts, default settings: LOG_LEVEL=info), each in
 * its own process, loaded by the same client (market.ts `load`: worker threads, keep-alive). Prints each
 * station figure as a share of the bare server's requests per second:
 * - ping.do (target ≥ 60%), getStock.do page of 20 sorted by change (target ≥ 40%), getDayK.do 3 years;
 * - orders on SQLite, buy then sell in a closed loop (target ≥ 10,000 orders/s with p99 < 20 ms).
 * BENCH_FLOOR_RUNS (default 1) repeats the whole comparison; BENCH_SECONDS sets each load's length and
 * BENCH_FLOOR_WARMUP_S (default 3) each URL's warm-up.
 * On a machine shared with other work (or where the one load thread, not the server, is the bottleneck) the
 * rates say little; each line also gives the server process's CPU time per request (from /proc), which
 * the machine's load changes far less: the station's against the bare server's is what a call pays beyond
 * a bare answer.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { load } from './market';
import {
  USERS,
  closedLoop,
  cpuMs,
  percentile,
  registerUsers,
  resetAgent,
  startStation,
  stopStation,
  warmUp,
} from './orders';

const ROOT = path.resolve(import.meta.dirname, '../..');
const RUNS = Math.max(1, Number(process.env.BENCH_FLOOR_RUNS ?? 1));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP_SECONDS = Number(process.env.BENCH_FLOOR_WARMUP_S ?? 3);

/** Starts the bare server in its own process; its base URL and a stop function. */
async function startBare(): Promise<{ base: string; pid: number; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/bench/bare-fastify.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /(http:\/\/[^\s/]+)\//.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`bare server exited (${code}) before it listened`)));
  });
  return { base, pid: child.pid!, stop: () => stopStation(child) };
}

const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(0)}%`;

async function run(index: number): Promise<void> {
  const bare = await startBare();
  // A fresh database each run: the bench registers the same phones every time.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'paperdesk-floor-'));
  const station = await startStation(
    { LOG_LEVEL: 'info', DATA_DIR: dataDir, STATIC_DIR: path.join(dataDir, 'none') },
    { readyLog: 'market history warmed up' },
  );
  try {
    const ping = `${station.base}/api/index/ping.do`;
    const page = `${station.base}/api/stock/getStock.do?market=a&pageSize=20&sort=-changePct`;
    const dayK = `${station.base}/api/stock/getDayK.do?code=600519&period=day&limit=750`;
    const hello = `${bare.base}/hello`;
    // Warmed up until the JIT has settled: after 1 s on a busy machine the first load measured paid for
    // compiling (ping.do 498 µs of CPU per request first, 149 µs once warm).
    for (const url of [hello, ping, page, dayK]) await load(url, WARMUP_SECONDS, 16);
    // The CPU a server spends with no request (the station's engine and jobs run every second), per ms,
    // taken off each load's so that a slow load does not look like a costly call.
    const idlePerMs = async (pid: number | undefined) => {
      const before = cpuMs(pid);
      await new Promise((r) => setTimeout(r, 3000));
      const after = cpuMs(pid);
      return before === null || after === null ? 0 : (after - before) / 3000;
    };
    const idle = new Map([
      [bare.pid, await idlePerMs(bare.pid)],
      [station.child.pid, await idlePerMs(station.child.pid)],
    ]);
    /** A load with the server's CPU time per answered request (µs), its idle CPU taken off. */
    const measured = async (url: string, pid: number | undefined) => {
      const before = cpuMs(pid);
      const start = performance.now();
      const figures = await load(url);
      const after = cpuMs(pid);
      const busy = before === null || after === null ? null : after - before;
      const background = (idle.get(pid) ?? 0) * (performance.now() - start);
      const requests = figures.rps * SECONDS;
      return { ...figures, cpuUs: busy === null ? null : (Math.max(0, busy - background) * 1000) / requests };
    };
    const floor = await measured(hello, bare.pid);
    const figures = {
      ping: await measured(ping, station.child.pid),
      stock: await measured(page, station.child.pid),
      dayK: await measured(dayK, station.child.pid),
    };
    const tokens = await registerUsers(station.base, USERS);
    await warmUp(station.base, tokens);
    const cpuBefore = cpuMs(station.child.pid);
    const orders = await closedLoop(station.base, tokens);
    const cpuAfter = cpuMs(station.child.pid);
    orders.latencies.sort((a, b) => a - b);
    const orderRate = orders.latencies.length / orders.elapsed;
    const p99 = percentile(orders.latencies, 0.99);
    const cpu = (us: number | null) => (us === null ? '' : `, ${us.toFixed(0)} µs CPU per request`);
    const cpuShare = (us: number | null) =>
      us === null || floor.cpuUs === null ? '' : ` (bare/station CPU per request ${pct(floor.cpuUs, us)})`;
    const line = (name: string, f: { rps: number; p99: number; cpuUs: number | null }, target: string) =>
      `  ${name}: ${f.rps.toFixed(0)} req/s = ${pct(f.rps, floor.rps)} of bare${target}, p99 ${f.p99.toFixed(1)} ms` +
      `${cpu(f.cpuUs)}${cpuShare(f.cpuUs)}`;
    console.log(
      `station vs bare Fastify, run ${index + 1}/${RUNS} (LOG_LEVEL=info, load average ${loadavg()[0]!.toFixed(1)}):`,
    );
    console.log(
      `  bare Fastify hello-world: ${floor.rps.toFixed(0)} req/s, p99 ${floor.p99.toFixed(1)} ms${cpu(floor.cpuUs)}`,
    );
    console.log(
      `  (idle CPU taken off: bare ${(idle.get(bare.pid)! * 100).toFixed(1)}%, station ` +
        `${(idle.get(station.child.pid)! * 100).toFixed(1)}% of a core)`,
    );
    console.log(line('ping.do', figures.ping, ' (target ≥ 60%)'));
    console.log(line('getStock.do page of 20', figures.stock, ' (target ≥ 40%)'));
    console.log(line('getDayK.do 3 years', figures.dayK, ''));
    console.log(
      `  orders on SQLite, closed loop: ${orderRate.toFixed(0)} orders/s = ${pct(orderRate, floor.rps)} of bare ` +
        `(target ≥ 10,000/s), p99 ${p99.toFixed(1)} ms (target < 20 ms)` +
        (cpuBefore === null || cpuAfter === null
          ? ''
          : `, ${(((cpuAfter - cpuBefore) * 1000) / orders.latencies.length).toFixed(0)} µs CPU per order`),
    );
  } finally {
    resetAgent();
    await stopStation(station.child);
    await bare.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchHttpFloor(): Promise<void> {
  for (let i = 0; i < RUNS; i++) await run(i);
}

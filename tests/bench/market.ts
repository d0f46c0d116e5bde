/**
 * The simulated exchange under load, measured over real HTTP on this machine.
 * - getStock.do, a page of 20 (A-shares, sorted by change): requests per second.
 * - getDayK.do, three years of day bars: requests per second.
 * - the live stream: 2,000 subscribers of 20 codes each (CLOCK_MODE=always-open, so every code ticks), p99
 *   delay from a tick's second to the client receiving it.
 * - the resident memory of a station process with the full catalogue and its history since the anchor
 *   built, during the stream run (that station runs in a process of its own, as `npm start` runs it).
 * The request load comes from worker threads (market-load-worker.ts: node:http, keep-alive), the station
 * runs in the main thread; on a 2-core machine they still share the cores. Settings:
 * - BENCH_LOAD_THREADS (default: one fewer than the machine's cores, at least 1, so the station keeps a
 *   core of its own) and BENCH_CONNECTIONS (32, spread over the threads); BENCH_SECONDS (5).
 * - BENCH_CLIENT=in-process: the former client instead (fetch in the station's own thread), for comparison.
 * - BENCH_TARGET=http://host:port: only the two request loads, against a station started separately (to
 *   profile it: `node --cpu-prof --import tsx server/main.ts`).
 * - BENCH_STREAM=0 skips the stream run; BENCH_ENCODING sets Accept-Encoding ('gzip, deflate, br').
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { buildServer } from '../../server/app';
import { loadConfig } from '../../server/config';
import { DAY_MS } from '../../server/market/sessions';
import type { LoadJob, LoadResult } from './market-load-worker';
import { startStation, stopStation } from './orders';

interface LoadFigures {
  rps: number;
  p99: number;
  errors: number;
}

const ENCODING = process.env.BENCH_ENCODING ?? 'gzip, deflate, br';
const THREADS = Math.max(1, Number(process.env.BENCH_LOAD_THREADS ?? availableParallelism() - 1));
const CONNECTIONS = Math.max(THREADS, Number(process.env.BENCH_CONNECTIONS ?? 32));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const IN_PROCESS = process.env.BENCH_CLIENT === 'in-process';

/** A worker thread running market-load-worker.ts through tsx (a worker does not inherit tsx's loader). */
function loadThread(job: LoadJob): Worker {
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./market-load-worker.ts', import.meta.url).href;
  return new Worker(
    `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`,
    { eval: true, workerData: job },
  );
}

/** GET `url` from THREADS worker threads over `connections` keep-alive connections for `seconds`. */
export async function load(url: string, seconds = SECONDS, connections = CONNECTIONS): Promise<LoadFigures> {
  if (IN_PROCESS) return loadInProcess(url, seconds, connections);
  const threads = Math.min(THREADS, connections);
  const workers = Array.from({ length: threads }, (_, i) =>
    loadThread({
      url,
      seconds,
      concurrency: Math.floor(connections / threads) + (i < connections % threads ? 1 : 0),
      encoding: ENCODING,
    }),
  );
  try {
    // Every thread first loads and says it is ready, so they all start the clock together.
    const results = workers.map(
      (worker) =>
        new Promise<LoadResult>((resolve, reject) => {
          worker.on('error', reject);
          worker.on('message', (message: 'ready' | LoadResult) => {
            if (message !== 'ready') resolve(message);
          });
        }),
    );
    await Promise.all(
      workers.map((worker) => new Promise<void>((resolve) => worker.once('message', () => resolve()))),
    );
    for (const worker of workers) worker.postMessage('go');
    const done = await Promise.all(results);
    const latencies = Float64Array.from(done.flatMap((r) => [...r.latencies])).sort();
    return {
      rps: done.reduce((sum, r) => sum + r.count / (r.elapsedMs / 1000), 0),
      p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
      errors: done.reduce((sum, r) => sum + r.errors, 0),
    };
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

/** The former client: fetch from the station's own thread (client and server share one event loop). */
async function loadInProcess(url: string, seconds: number, concurrency: number): Promise<LoadFigures> {
  const until = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  const worker = async () => {
    while (performance.now() < until) {
      const start = performance.now();
      const res = await fetch(url, { headers: { 'accept-encoding': ENCODING } });
      if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
      await res.arrayBuffer();
      latencies.push(performance.now() - start);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / elapsed,
    p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
    errors: 0,
  };
}

/** The two request loads against a station at `base`: a warm-up second each, then SECONDS each. */
async function requestLoads(base: string) {
  const page = `${base}/api/stock/getStock.do?market=a&pageSize=20&sort=-changePct`;
  const dayK = `${base}/api/stock/getDayK.do?code=600519&period=day&limit=750`;
  const bars = ((await (await fetch(dayK)).json()) as { data: { bars: unknown[] } }).data.bars.length;
  await load(page, 1, 16);
  await load(dayK, 1, 16);
  const stock = await load(page);
  const history = await load(dayK);
  return { bars, stock, history };
}

function describeLoads(loads: Awaited<ReturnType<typeof requestLoads>>, inProcessMs?: number): void {
  const { bars, stock, history } = loads;
  const errors = (f: LoadFigures) => (f.errors > 0 ? `, ${f.errors} failed` : '');
  console.log(
    `  client: ${IN_PROCESS ? 'fetch in the station thread' : `${THREADS} worker threads, node:http keep-alive`}, ${CONNECTIONS} connections, ${SECONDS} s a call`,
  );
  console.log(
    `  getStock.do page of 20: ${stock.rps.toFixed(0)} req/s (target ≥ 5,000), p99 ${stock.p99.toFixed(1)} ms${errors(stock)}`,
  );
  console.log(
    `  getDayK.do 3 years of trading days (${bars} bars): ${history.rps.toFixed(0)} req/s (target ≥ 1,000), p99 ${history.p99.toFixed(1)} ms${errors(history)}${inProcessMs === undefined ? '' : `; in process ${inProcessMs.toFixed(3)} ms per call`}`,
  );
}

/** Opens `subscribers` SSE streams of `codes`, listens for `seconds`, returns the tick-to-client delays (ms). */
async function fanOut(
  base: string,
  codes: string[],
  subscribers: number,
  seconds: number,
): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const delays: number[] = [];
  const requests: http.ClientRequest[] = [];
  let measuring = false;
  await Promise.all(
    Array.from(
      { length: subscribers },
      () =>
        new Promise<void>((resolve, reject) => {
          const req = http.get(`${base}/api/stream/quotes?codes=${codes.join(',')}`, { agent }, (res) => {
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              if (!measuring) return;
              const at = Date.now();
              const m = /id: (\d+)/.exec(chunk);
              if (m) delays.push(at - Number(m[1]) * 1000);
            });
            resolve();
          });
          req.on('error', (error) => (measuring ? undefined : reject(error)));
          requests.push(req);
        }),
    ),
  );
  measuring = true;
  await new Promise((r) => setTimeout(r, seconds * 1000));
  measuring = false;
  for (const req of requests) req.destroy();
  agent.destroy();
  return delays.sort((a, b) => a - b);
}

/** A number of kB from /proc/<pid>/status (VmRSS: resident now; VmHWM: the peak since the process began). */
function procStatusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]);
}

/**
 * 2,000 subscribers of 20 codes for 5 s against a station process of its own (always open, its full
 * history built): the tick-to-client delays, and that process's resident memory — the most sampled during
 * the run, and its peak over its whole life (the kernel's high-water mark).
 */
async function streamRun(
  dataDir: string,
  codes: string[],
): Promise<{ fan: number[]; runMb: number; lifeMb: number }> {
  // Its history is built once it logs "market history warmed up" (server/main.ts).
  const { base, child } = await startStation(
    // Every subscriber comes from this one address: lift the per-address cap (a phone holds one or two).
    { DATA_DIR: dataDir, STATIC_DIR: path.join(dataDir, 'none'), STREAMS_PER_IP: '5000' },
    { readyLog: 'market history warmed up' },
  );
  const pid = child.pid!;
  let runKb = procStatusKb(pid, 'VmRSS');
  const sampler = setInterval(() => {
    runKb = Math.max(runKb, procStatusKb(pid, 'VmRSS'));
  }, 100);
  try {
    const fan = await fanOut(base, codes, 2000, 5);
    runKb = Math.max(runKb, procStatusKb(pid, 'VmRSS'));
    return { fan, runMb: runKb / 1024, lifeMb: procStatusKb(pid, 'VmHWM') / 1024 };
  } finally {
    clearInterval(sampler);
    await stopStation(child);
  }
}

export async function benchMarket(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'paperdesk-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'none'),
    CLOCK_MODE: 'real',
    LOG_LEVEL: 'silent',
  });
  const app = await buildServer(config);
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    app.jobs.start(); // as main.ts does: the engine and the reviewers run beside the load
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const base = `http://127.0.0.1:${address.port}`;

    // Load the whole catalogue's history (every instrument, every day since the anchor) and time it.
    const t0 = performance.now();
    const today = Math.floor(Date.now() / DAY_MS);
    for (const instrument of app.market.instruments) app.market.series(instrument).record(today);
    const historyMs = performance.now() - t0;

    const inProcess = (() => {
      const instrument = app.market.get('600519');
      const n = 2000;
      const start = performance.now();
      for (let i = 0; i < n; i++) app.market.dayBars(instrument, 'day', 750);
      return (performance.now() - start) / n;
    })();

    // The stream on a station process of its own where every market is open: its memory is the station's
    // alone (not this process's 2,000 client sockets, nor the station above), and it runs before the load
    // threads so they do not share the cores with it.
    const stream =
      process.env.BENCH_STREAM === '0'
        ? null
        : await streamRun(
            path.join(dataDir, 'stream'),
            app.market.instruments.slice(0, 20).map((i) => i.code),
          );

    const loads = await requestLoads(base);
    await app.close();

    console.log('market, CLOCK_MODE=real, over HTTP on 127.0.0.1:');
    console.log(
      `  full history of ${app.market.instruments.length} stocks computed in ${(historyMs / 1000).toFixed(1)} s`,
    );
    describeLoads(loads, inProcess);
    if (stream) {
      const { fan, runMb, lifeMb } = stream;
      const p = (q: number) => fan[Math.min(fan.length - 1, Math.floor(fan.length * q))] ?? NaN;
      console.log(
        `  stream fan-out, 2,000 subscribers × 20 codes: ${fan.length} deliveries in 5 s; delay tick → client p50 ${p(0.5).toFixed(0)} ms, p99 ${p(0.99).toFixed(0)} ms (target < 250 ms)`,
      );
      console.log(
        `  resident memory of the station process (full catalogue and history built): peak ${runMb.toFixed(0)} MB during the stream run, ${lifeMb.toFixed(0)} MB at most over its life (target < 500 MB)`,
      );
    }
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Only the two request loads, against a station that runs elsewhere (BENCH_TARGET). */
export async function benchMarketTarget(base: string): Promise<void> {
  console.log(`market, request loads against ${base}:`);
  describeLoads(await requestLoads(base));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.env.BENCH_TARGET) await benchMarketTarget(process.env.BENCH_TARGET);
  else await benchMarket();
}

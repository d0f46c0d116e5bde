/**
 * issue 5: the simulated exchange under load, measured over real HTTP on this machine (client and station
 * share the process and its cores, so the figures are conservative).
 * - getStock.do, a page of 20 (A-shares, sorted by change): requests per second.
 * - getDayK.do, three years of day bars: requests per second.
 * - the live stream: 2,000 subscribers of 20 codes each (CLOCK_MODE=always-open, so every code ticks), p99
 *   delay from a tick's second to the client receiving it.
 * - the station's peak resident memory with the full catalogue and its history since the anchor loaded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildServer } from '../../server/app';
import { loadConfig } from '../../server/config';
import { DAY_MS } from '../../server/market/sessions';

async function load(
  url: string,
  seconds: number,
  concurrency: number,
  encoding = process.env.BENCH_ENCODING ?? 'gzip, deflate, br',
): Promise<{ rps: number; p99: number }> {
  const until = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  const worker = async () => {
    while (performance.now() < until) {
      const start = performance.now();
      const res = await fetch(url, { headers: { 'accept-encoding': encoding } });
      if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
      await res.arrayBuffer();
      latencies.push(performance.now() - start);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0 };
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
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const base = `http://127.0.0.1:${address.port}`;

    // Load the whole catalogue's history (every instrument, every day since the anchor) and time it.
    const t0 = performance.now();
    const today = Math.floor(Date.now() / DAY_MS);
    for (const instrument of app.market.instruments) app.market.series(instrument).record(today);
    const historyMs = performance.now() - t0;

    const page = `${base}/api/stock/getStock.do?market=a&pageSize=20&sort=-changePct`;
    const dayK = `${base}/api/stock/getDayK.do?code=600519&period=day&limit=750`;
    const bars = ((await (await fetch(dayK)).json()) as { data: { bars: unknown[] } }).data.bars.length;
    await load(page, 1, 16);
    await load(dayK, 1, 16);
    const stock = await load(page, 5, 32);
    const history = await load(dayK, 5, 32);

    const inProcess = (() => {
      const instrument = app.market.get('600519');
      const n = 2000;
      const start = performance.now();
      for (let i = 0; i < n; i++) app.market.dayBars(instrument, 'day', 750);
      return (performance.now() - start) / n;
    })();

    const peakMb = process.resourceUsage().maxRSS / 1024;
    await app.close();

    // The stream, on a station where every market is open.
    const streamConfig = loadConfig({
      DATA_DIR: dataDir,
      STATIC_DIR: path.join(dataDir, 'none'),
      CLOCK_MODE: 'always-open',
      LOG_LEVEL: 'silent',
    });
    const streamApp = await buildServer(streamConfig);
    let fan: number[] = [];
    try {
      await streamApp.listen({ port: 0, host: '127.0.0.1' });
      const streamAddress = streamApp.server.address();
      if (!streamAddress || typeof streamAddress === 'string') throw new Error('no port');
      const codes = streamApp.market.instruments.slice(0, 20).map((i) => i.code);
      fan = await fanOut(`http://127.0.0.1:${streamAddress.port}`, codes, 2000, 5);
    } finally {
      await streamApp.close();
    }
    const streamPeakMb = process.resourceUsage().maxRSS / 1024;
    const p = (q: number) => fan[Math.min(fan.length - 1, Math.floor(fan.length * q))] ?? NaN;
    console.log('market (issue 5), CLOCK_MODE=real, over HTTP on 127.0.0.1:');
    console.log(
      `  full history of ${app.market.instruments.length} stocks computed in ${(historyMs / 1000).toFixed(1)} s`,
    );
    console.log(
      `  getStock.do page of 20: ${stock.rps.toFixed(0)} req/s (target ≥ 5,000), p99 ${stock.p99.toFixed(1)} ms`,
    );
    console.log(
      `  getDayK.do 3 years of trading days (${bars} bars): ${history.rps.toFixed(0)} req/s (target ≥ 1,000), p99 ${history.p99.toFixed(1)} ms; in process ${inProcess.toFixed(3)} ms per call`,
    );
    console.log(
      `  stream fan-out, 2,000 subscribers × 20 codes: ${fan.length} deliveries in 5 s; delay tick → client p50 ${p(0.5).toFixed(0)} ms, p99 ${p(0.99).toFixed(0)} ms (target < 250 ms)`,
    );
    console.log(
      `  peak resident memory of the process: ${peakMb.toFixed(0)} MB with the full history loaded, ${streamPeakMb.toFixed(0)} MB after the stream run (target < 500 MB)`,
    );
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchMarket();

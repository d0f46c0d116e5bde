/**
 * One thread of the market bench's load generator (tests/bench/market.ts): `concurrency` keep-alive
 * connections, each sending GET `url` again as soon as the previous answer is read, for `seconds`.
 * It waits for the word 'go' so every thread starts together, then posts its count and latencies back.
 * Runs in a worker_thread, so the client's parsing and bookkeeping do not share the station's event loop.
 */
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

export interface LoadJob {
  url: string;
  seconds: number;
  concurrency: number;
  encoding: string;
}

export interface LoadResult {
  count: number;
  errors: number;
  elapsedMs: number;
  /** Latency of each request, ms. */
  latencies: Float64Array;
}

const job = workerData as LoadJob;
const port = parentPort;
if (!port) throw new Error('market-load-worker runs only as a worker thread');

const agent = new http.Agent({ keepAlive: true, maxSockets: job.concurrency });

function once(): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(job.url, { agent, headers: { 'accept-encoding': job.encoding } }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve(res.statusCode === 200));
      res.on('error', () => resolve(false));
    });
    req.on('error', () => resolve(false));
  });
}

port.once('message', async () => {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const until = started + job.seconds * 1000;
  const connection = async () => {
    while (performance.now() < until) {
      const start = performance.now();
      if (await once()) latencies.push(performance.now() - start);
      else errors++;
    }
  };
  await Promise.all(Array.from({ length: job.concurrency }, connection));
  const elapsedMs = performance.now() - started;
  agent.destroy();
  const buffer = new ArrayBuffer(latencies.length * Float64Array.BYTES_PER_ELEMENT);
  const result: LoadResult = {
    count: latencies.length,
    errors,
    elapsedMs,
    latencies: new Float64Array(buffer),
  };
  result.latencies.set(latencies);
  port.postMessage(result, [buffer]);
});
port.postMessage('ready');

/**
 * A first visit over a slow mobile link: 400 ms round trip and 400 kbit/s each way, shaped by a TCP proxy
 * between Chromium and the station (so the service worker's own fetches cross the same link as the page's,
 * which Chromium's network emulation would not throttle). Prints the time from navigation to a usable
 * /home (the index cards drawn), to service-worker control (target under 10 s), and to every screen
 * available offline; and the bytes the service worker precaches before it controls the page (raw, and as
 * the station sends them) against the whole build.
 * Needs dist/ and Chromium (CHROME_PATH or /usr/bin/chromium). BENCH_SLOW_RUNS (default 3) runs, median.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { join, resolve } from 'node:path';
import {
  controlledByWorker,
  launchPhoneBrowser,
  newPhoneContext,
  offlineReady,
  startE2eStation,
} from '../e2e/harness';

const RTT_MS = 400;
const BYTES_PER_S = 400_000 / 8;
const RUNS = Math.max(1, Number(process.env.BENCH_SLOW_RUNS ?? 3));
const TARGET_CONTROL_S = 10;

/**
 * One direction of the link: chunks cross one at a time at the link's rate (so every connection shares the
 * bandwidth, as on a phone), then take half a round trip to arrive.
 */
class Direction {
  #freeAt = 0;

  send(bytes: Buffer, deliver: () => void): void {
    const now = performance.now();
    const start = Math.max(now, this.#freeAt);
    this.#freeAt = start + (bytes.length / BYTES_PER_S) * 1000;
    setTimeout(deliver, this.#freeAt + RTT_MS / 2 - now);
  }
}

/** A shaping TCP proxy to `target`; `bytesDown` counts what reached the browser. */
async function slowLink(
  targetPort: number,
): Promise<{ port: number; bytesDown: () => number; close: () => Promise<void> }> {
  const up = new Direction();
  const down = new Direction();
  let bytesDown = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    const station = connect(targetPort, '127.0.0.1');
    sockets.add(station);
    client.pause();
    // The TCP handshake costs a round trip before the first byte goes.
    setTimeout(() => client.resume(), RTT_MS);
    client.on('data', (chunk: Buffer) => up.send(chunk, () => station.destroyed || station.write(chunk)));
    station.on('data', (chunk: Buffer) =>
      down.send(chunk, () => {
        if (client.destroyed) return;
        bytesDown += chunk.length;
        client.write(chunk);
      }),
    );
    const end = () => {
      // After the bytes in flight: the slowest possible delivery is one link's queue plus half a round trip.
      setTimeout(() => {
        client.destroy();
        station.destroy();
      }, 60_000);
    };
    client.on('close', () => station.destroy());
    station.on('end', end);
    client.on('error', () => station.destroy());
    station.on('error', () => client.destroy());
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the slow link has no port');
  return {
    port: address.port,
    bytesDown: () => bytesDown,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

/** The precache list the build wrote into sw.js: files before control, and the rest (`later`). */
function precacheBytes(dist: string): { first: [number, number]; later: [number, number] } {
  const sw = readFileSync(join(dist, 'sw.js'), 'utf8');
  const sums = { first: [0, 0] as [number, number], later: [0, 0] as [number, number] };
  for (const m of sw.matchAll(/\{[^{}]*"url":"([^"]+)"[^{}]*\}/g)) {
    const file = join(dist, m[1]!);
    const raw = readFileSync(file).length;
    const sent = existsSync(`${file}.br`) ? readFileSync(`${file}.br`).length : raw;
    const sum = m[0].includes('"later":true') ? sums.later : sums.first;
    sum[0] += raw;
    sum[1] += sent;
  }
  return sums;
}

interface Visit {
  usableMs: number;
  controlMs: number;
  offlineMs: number;
  downKb: number;
}

async function visit(stationPort: number): Promise<Visit> {
  const link = await slowLink(stationPort);
  const browser = await launchPhoneBrowser();
  try {
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    const started = performance.now();
    // BENCH_SLOW_TRACE=1: every request with its start time, the service worker's marked, to see what waits.
    if (process.env.BENCH_SLOW_TRACE) {
      const at = () => ((performance.now() - started) / 1000).toFixed(1);
      context.on('request', (r) => {
        console.log(`  ${at()} s ${r.serviceWorker() ? 'worker' : 'page'} ${new URL(r.url()).pathname}`);
      });
    }
    await page.goto(`http://127.0.0.1:${link.port}/home`, { waitUntil: 'commit', timeout: 120_000 });
    const usable = page
      .getByTestId('index-cards')
      .waitFor({ timeout: 120_000 })
      .then(() => performance.now() - started);
    const control = page
      .waitForFunction(controlledByWorker, null, { timeout: 120_000, polling: 50 })
      .then(() => performance.now() - started);
    const [usableMs, controlMs] = await Promise.all([usable, control]);
    await offlineReady(page);
    const offlineMs = performance.now() - started;
    return { usableMs, controlMs, offlineMs, downKb: link.bytesDown() / 1024 };
  } finally {
    await browser.close();
    await link.close();
  }
}

/** /home's calls once, straight to the station. */
async function page0(base: string): Promise<void> {
  for (const path of [
    '/api/site/getBannerByPlat.do?plat=h5',
    '/api/notice/getNoticeList.do?pageNum=1&pageSize=5',
    '/api/index/queryListIndex.do?region=cn',
    '/api/stock/getTop.do?market=a&by=turnover&limit=5',
    '/api/news/getNewsList.do?pageNum=1&pageSize=5',
    '/api/admin/getProductSetting.do',
  ]) {
    await fetch(`${base}${path}`).then((response) => response.arrayBuffer());
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchSlowLink(): Promise<void> {
  const dist = resolve(import.meta.dirname, '../../dist');
  const sizes = precacheBytes(dist);
  const kb = (n: number) => (n / 1024).toFixed(0);
  console.log(
    `\nSlow link (${RTT_MS} ms RTT, ${(BYTES_PER_S * 8) / 1000} kbit/s): precached before control ` +
      `${kb(sizes.first[0])} KB raw, ${kb(sizes.first[1])} KB sent (brotli); fetched after control ` +
      `${kb(sizes.later[0])} KB raw, ${kb(sizes.later[1])} KB sent`,
  );
  const station = await startE2eStation({ LOG_LEVEL: 'warn' });
  try {
    // The station as a user meets it: warm (the first market calls of a fresh station build its day).
    await page0(station.url);
    const visits: Visit[] = [];
    for (let i = 0; i < RUNS; i++) visits.push(await visit(station.port));
    const s = (ms: number) => (ms / 1000).toFixed(1);
    for (const [i, v] of visits.entries()) {
      console.log(
        `  run ${i + 1}: /home usable ${s(v.usableMs)} s, service worker controls ${s(v.controlMs)} s, ` +
          `every screen offline ${s(v.offlineMs)} s, ${v.downKb.toFixed(0)} KB down`,
      );
    }
    const control = median(visits.map((v) => v.controlMs));
    console.log(
      `  median: /home usable ${s(median(visits.map((v) => v.usableMs)))} s, control ${s(control)} s ` +
        `(target < ${TARGET_CONTROL_S} s: ${control / 1000 < TARGET_CONTROL_S ? 'within' : 'OVER'}), ` +
        `every screen offline ${s(median(visits.map((v) => v.offlineMs)))} s`,
    );
  } finally {
    await station.close();
  }
}

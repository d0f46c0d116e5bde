/**
 * `npm run bench`: measurements, not assertions. Prints the gzip size of the JavaScript that /home loads on a
 * first visit (the entry chunk and its static imports), from the production build in dist/, then every
 * section below. `npm run bench -- <section>…` (or `npx tsx scripts/bench.ts <section>…`) runs only the
 * sections named; `--help` lists them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const SECTIONS = [
  'app',
  'chart',
  'trading',
  'market',
  'shell',
  'slow-link',
  'identity',
  'memory',
  'floor',
  'order-cost',
  'orders',
  'scale-out',
  'competitions',
] as const;
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
if (process.argv.includes('--help')) {
  console.log(`usage: npx tsx scripts/bench.ts [section…]; sections: ${SECTIONS.join(', ')} (default: all)`);
  process.exit(0);
}
for (const name of wanted) {
  if (!(SECTIONS as readonly string[]).includes(name)) {
    console.error(`unknown bench section ${name}; sections: ${SECTIONS.join(', ')}`);
    process.exit(2);
  }
}
const runs = (section: (typeof SECTIONS)[number]) => wanted.length === 0 || wanted.includes(section);

const dist = resolve(import.meta.dirname, '../dist');

/** The /home first-visit JavaScript; answers the files it found (the chart bench compares its chunk). */
function benchApp(): Set<string> {
  if (!existsSync(join(dist, 'index.html'))) {
    console.error('dist/ is missing: run `npm run build` first.');
    process.exit(1);
  }

  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const entries = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)].map((m) => m[1]!);
  const preloads = [...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)].map(
    (m) => m[1]!,
  );

  /** Follows static `import … from "./x.js"` edges (not dynamic `import()`), as the browser does on load. */
  function staticClosure(start: string[]): Set<string> {
    const seen = new Set<string>();
    const queue = [...start];
    while (queue.length) {
      const url = queue.pop()!;
      if (seen.has(url)) continue;
      seen.add(url);
      const file = join(dist, url.replace(/^\//, ''));
      if (!existsSync(file)) continue;
      const code = readFileSync(file, 'utf8');
      const base = url.slice(0, url.lastIndexOf('/') + 1);
      for (const m of code.matchAll(/(?:^|[;\s}])import\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+\.js)["']/g)) {
        const spec = m[1]!;
        queue.push(spec.startsWith('/') ? spec : new URL(spec, `http://x${base}`).pathname);
      }
    }
    return seen;
  }

  const files = staticClosure([...entries, ...preloads]);
  let raw = 0;
  let gz = 0;
  for (const url of files) {
    const buf = readFileSync(join(dist, url.replace(/^\//, '')));
    raw += buf.length;
    gz += gzipSync(buf, { level: 9 }).length;
  }
  console.log(
    `/home first-visit JavaScript: ${files.size} files, ${(raw / 1024).toFixed(1)} KB raw, ${(gz / 1024).toFixed(1)} KB gzip`,
  );
  for (const url of [...files].sort()) console.log(`  ${url}`);
  return files;
}

if (runs('app') || runs('chart')) {
  const files = benchApp();
  if (runs('chart')) {
    // The K-line worker's indicators, the chart chunk and main-thread smoothness in Chromium.
    const { benchChartIndicators } = await import('../tests/bench/chart-indicators');
    const { benchChartChunk } = await import('../tests/bench/chart-chunk');
    const { benchChartLongTask } = await import('../tests/bench/chart-longtask');
    benchChartIndicators();
    benchChartChunk(dist, files);
    await benchChartLongTask();
  }
}

if (runs('trading')) {
  // The A-share list's scroll frame rate against its own markup with no script, and the JS heap after ten details.
  const { benchTradingHeapFps } = await import('../tests/bench/trading-heap-fps');
  await benchTradingHeapFps();
}

if (runs('market')) {
  // The simulated exchange's market calls over HTTP and its memory with the full history loaded.
  const { benchMarket } = await import('../tests/bench/market');
  await benchMarket();
}

if (runs('shell')) {
  // The app shell's first visit in Chromium (JavaScript really downloaded) and Lighthouse scores.
  const { benchShell } = await import('../tests/bench/shell-lighthouse');
  await benchShell();
}

if (runs('slow-link')) {
  // A first visit over a slow mobile link: a usable /home, service-worker control, every screen offline.
  const { benchSlowLink } = await import('../tests/bench/slow-link');
  await benchSlowLink();
}

if (runs('identity')) {
  // Identity: login cost, lockout and SMS limits under 200 parallel attempts, ping with security headers.
  const { benchIdentity } = await import('../tests/bench/identity');
  await benchIdentity();
}

if (runs('memory')) {
  // The station's peak memory and ping p99 during 20 parallel 10 MB KYC uploads and 200 unread streams.
  const { benchStationMemory } = await import('../tests/bench/station-memory');
  await benchStationMemory();
}

if (runs('floor')) {
  // The station against a bare Fastify server in the same run: ping.do, getStock.do, getDayK.do, orders.
  const { benchHttpFloor } = await import('../tests/bench/http-floor');
  await benchHttpFloor();
}

if (runs('order-cost')) {
  // One order's cost without HTTP: CPU, statements and SQLite's time per order (the floor under the orders).
  const { benchOrderCost } = await import('../tests/bench/order-cost');
  await benchOrderCost();
}

if (runs('orders')) {
  // Orders per second over HTTP (buy then sell, 50 users) with p50/p99 latency, SQLite and PostgreSQL.
  const { benchOrders } = await import('../tests/bench/orders');
  await benchOrders();
}

if (runs('scale-out')) {
  // Scale-out mode: two processes on PostgreSQL + Redis, against one process on SQLite, in one run.
  const { benchScaleOut } = await import('../tests/bench/scale-out');
  await benchScaleOut();
}

if (runs('competitions')) {
  // A competition of 10,000 entrants: the ranking job's time per run and leaderboard reads per second.
  const { benchCompetitions } = await import('../tests/bench/competitions');
  await benchCompetitions();
}

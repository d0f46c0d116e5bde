/**
 * App shell bench: Lighthouse (12.8.2, from node_modules, its CLI, mobile defaults: Moto G power emulation,
 * slow 4G and 4× CPU throttling) against a station started as the e2e harness starts it (dist/, SQLite),
 * on /home and /trading-list: the performance, accessibility, best-practices and SEO scores (target ≥ 95
 * each). Also the JavaScript a first visit of /home really downloads in Chromium (every script response,
 * lazy chunks and the dictionary included), as sent (brotli) and as gzip (target ≤ 120 KB gzip).
 * Needs dist/ and Chromium (CHROME_PATH or /usr/bin/chromium). BENCH_LIGHTHOUSE=0 prints the JavaScript only.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { launchPhoneBrowser, newPhoneContext, startE2eStation } from '../e2e/harness';

const run = promisify(execFile);
const LIGHTHOUSE_CLI = resolve(import.meta.dirname, '../../node_modules/lighthouse/cli/index.js');
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const TARGET_SCORE = 95;
const TARGET_HOME_JS_KB = 120;

interface LighthouseResult {
  lighthouseVersion: string;
  categories: Record<string, { score: number | null }>;
  audits: Record<
    string,
    { score: number | null; title: string; scoreDisplayMode: string; displayValue?: string }
  >;
}

async function lighthouse(url: string, chromePath: string): Promise<LighthouseResult> {
  const { stdout } = await run(
    process.execPath,
    [
      LIGHTHOUSE_CLI,
      url,
      '--output=json',
      '--output-path=stdout',
      '--quiet',
      `--only-categories=${CATEGORIES.join(',')}`,
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage',
    ],
    { env: { ...process.env, CHROME_PATH: chromePath }, maxBuffer: 64 * 1024 * 1024, timeout: 240_000 },
  );
  return JSON.parse(stdout) as LighthouseResult;
}

/** The scripts a fresh phone profile downloads on opening /home, until the network is quiet. */
async function homeFirstVisitJs(
  base: string,
): Promise<{ files: number; sent: number; gzip: number; each: { path: string; gzip: number }[] }> {
  const browser = await launchPhoneBrowser();
  try {
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    const bodies: Promise<{ path: string; sent: number; gzip: number }>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      bodies.push(
        (async () => {
          const body = await response.body();
          const sizes = await response.request().sizes();
          return {
            path: new URL(response.url()).pathname,
            sent: sizes.responseBodySize,
            gzip: gzipSync(body, { level: 9 }).length,
          };
        })(),
      );
    });
    await page.goto(`${base}/home`, { waitUntil: 'networkidle' });
    // Scripts the app loads once idle (the service worker's helper) belong to the first visit too.
    await page.waitForTimeout(3000);
    await page.waitForLoadState('networkidle');
    const all = await Promise.all(bodies);
    return {
      files: all.length,
      sent: all.reduce((sum, x) => sum + x.sent, 0),
      gzip: all.reduce((sum, x) => sum + x.gzip, 0),
      each: all.map(({ path, gzip }) => ({ path, gzip })).sort((a, b) => b.gzip - a.gzip),
    };
  } finally {
    await browser.close();
  }
}

export async function benchShell(): Promise<void> {
  const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  const station = await startE2eStation();
  try {
    const js = await homeFirstVisitJs(station.url);
    const kb = (n: number) => (n / 1024).toFixed(1);
    console.log(
      `\n/home first visit in Chromium: ${js.files} scripts, ${kb(js.sent)} KB sent (brotli), ${kb(js.gzip)} KB gzip` +
        ` (target ≤ ${TARGET_HOME_JS_KB} KB gzip: ${js.gzip / 1024 <= TARGET_HOME_JS_KB ? 'within' : 'OVER'})`,
    );
    for (const file of js.each) console.log(`  ${kb(file.gzip).padStart(6)} KB  ${file.path}`);
    if (process.env.BENCH_LIGHTHOUSE === '0') return;
    for (const path of ['/home', '/trading-list']) {
      const result = await lighthouse(`${station.url}${path}`, chromePath);
      const scores = CATEGORIES.map((name) => {
        const score = Math.round((result.categories[name]?.score ?? 0) * 100);
        return `${name} ${score}${score >= TARGET_SCORE ? '' : ' (BELOW 95)'}`;
      });
      console.log(`Lighthouse ${result.lighthouseVersion} mobile ${path}: ${scores.join(', ')}`);
      const failing = Object.entries(result.audits)
        .filter(([, a]) => a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'notApplicable')
        .filter(([, a]) => a.score !== null && a.score < 0.9)
        .map(([id, a]) => `${id}${a.displayValue ? ` (${a.displayValue})` : ''}`);
      if (failing.length) console.log(`  audits below 0.9: ${failing.join(', ')}`);
    }
  } finally {
    await station.close();
  }
}

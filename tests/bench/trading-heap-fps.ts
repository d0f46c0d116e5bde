/**
 * Bench: the trading screens on a low-end phone, in Chromium at 390×844 against a real station
 * whose market moves (the live stream runs).
 * - Frame rate while scrolling the whole A-share list (every page loaded by infinite scroll) with the CPU
 *   slowed 4×, against the same flings, in the same run, over a no-script page: the list's own markup and
 *   stylesheets taken from the app's rendered page, every row in it from the start, nothing running. That
 *   page is what Chromium itself reaches with these rows on this machine, which no list code can beat
 *   (repainting the rows that scroll into Chromium's paint area costs it a late frame now and then on a slow
 *   machine, script or not). Printed: both frame rates, their ratio (target: the app ≥ 97% of the no-script
 *   page) and the frames over 50 ms of each (target: the app's ≤ the no-script page's + 1).
 *   BENCH_SCROLL_RUNS (5 by default) repeats the pair, each time in a fresh profile; each run and the median
 *   of each figure are printed.
 * - The JavaScript heap after the first run's scroll and after opening ten stocks' detail screens from the
 *   list (in-app navigation, live prices running), measured after a garbage collection. Target: under 60 MB.
 * Needs dist/ and Chromium (CHROME_PATH or /usr/bin/chromium).
 */
import type { Browser, CDPSession, Page } from 'playwright-core';
import type { Quote } from '../../src/shared/api/types';
import { formatMoney, formatPct } from '../../src/shared/format';
import { moveClass } from '../../src/app/components/move-class';
import { priceDigits } from '../../src/app/components/market-info';
import { launchPhoneBrowser, newPhoneContext, startE2eStation } from '../e2e/harness';

/** The CPU slowdown (4: the target's low-end phone); BENCH_CPU_SLOWDOWN sets another, e.g. to compare builds harder. */
const CPU_SLOWDOWN = Number(process.env.BENCH_CPU_SLOWDOWN ?? 4);
const DETAILS = 10;
const SCROLL_RUNS = Math.max(1, Number(process.env.BENCH_SCROLL_RUNS ?? 5));
/** The app's frame rate over the no-script page's: at least this. */
const TARGET_RATIO = 0.97;

/** Records each animation frame's time from the first script on (page code, as text: no DOM types here). */
const RECORD_FRAMES = `
  window.__frames = [];
  const frame = (t) => { window.__frames.push(t); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
`;

async function heapMb(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return usedSize / 1024 / 1024;
}

/** One fling as Chromium's own smooth-scroll gesture does it: 1,500 px down at 3,000 px/s. */
async function fling(cdp: CDPSession): Promise<void> {
  // (The touch variant of the gesture does not scroll this headless page.)
  await cdp.send('Input.synthesizeScrollGesture', {
    x: 195,
    y: 600,
    yDistance: -1500,
    speed: 3000,
    gestureSourceType: 'mouse',
  });
}

interface FrameRate {
  fps: number;
  over50: number;
  longest: number;
}

/** Runs `scroll` with the CPU slowed and reads the animation frames recorded meanwhile. */
async function frameRate(page: Page, cdp: CDPSession, scroll: () => Promise<void>): Promise<FrameRate> {
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  const from = await page.evaluate<number>('performance.now()');
  await scroll();
  const to = await page.evaluate<number>('performance.now()');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  const frames = (await page.evaluate<number[]>('window.__frames')).filter((t) => t >= from && t <= to);
  const gaps = frames.slice(1).map((t, i) => t - frames[i]!);
  return {
    fps: gaps.length / ((to - from) / 1000),
    over50: gaps.filter((g) => g > 50).length,
    longest: gaps.reduce((max, g) => Math.max(max, g), 0),
  };
}

const printRate = (rate: FrameRate) =>
  `${rate.fps.toFixed(1)} fps; frames over 50 ms: ${rate.over50} (longest frame ${rate.longest.toFixed(0)} ms)`;

/** The list's end ("no more") is on screen: every row has been loaded and scrolled past. */
const END_ON_SCREEN = `(document.querySelector('.list-end')?.getBoundingClientRect().top ?? Infinity) < innerHeight`;

/** Flings until the end of the list is on screen. */
async function scrollToTheEnd(page: Page, cdp: CDPSession): Promise<{ steps: number; rows: number }> {
  let steps = 0;
  for (; steps < 300; steps++) {
    await fling(cdp);
    if (await page.evaluate<boolean>(END_ON_SCREEN)) break;
  }
  // A virtualised list has only the rows near the screen in the page: once it is complete, its length is
  // the set size its rows announce (aria-setsize); without one, the rows in the page.
  const rows = await page.evaluate<number>(
    `Number(document.querySelector('[aria-setsize]')?.getAttribute('aria-setsize') ?? ` +
      `document.querySelectorAll('[data-testid^="quote-row-"]').length)`,
  );
  return { steps, rows };
}

/** Every quote of a market, as the list's pages hold them. */
async function allQuotes(url: string, market: string): Promise<Quote[]> {
  const quotes: Quote[] = [];
  for (let pageNum = 1; pageNum < 100; pageNum++) {
    const answer = await fetch(
      `${url}/api/stock/getStock.do?market=${market}&pageNum=${pageNum}&pageSize=100`,
    );
    const { data } = (await answer.json()) as { data: { list: Quote[]; total: number } };
    quotes.push(...data.list);
    if (data.list.length === 0 || quotes.length >= data.total) break;
  }
  return quotes;
}

/**
 * Fills a page, once, with the app's document as it stands (its stylesheets, its header and tab bar, the list
 * and one of its rows, no script) and then the list with every quote, each row a copy of the app's own row
 * at its place with the texts and colours the app gives it (English). Nothing runs after that.
 */
async function staticList(
  browser: Browser,
  app: Page,
  quotes: Quote[],
): Promise<{ page: Page; cdp: CDPSession }> {
  const html = await app.evaluate<string>(`(() => {
    const root = document.documentElement.cloneNode(true);
    root.querySelectorAll('script, link[rel="modulepreload"], link[rel="manifest"]').forEach((n) => n.remove());
    root.querySelectorAll('link[rel="stylesheet"]').forEach((n) => n.setAttribute('href', n.href));
    return '<!doctype html>' + root.outerHTML;
  })()`);
  const context = await newPhoneContext(browser);
  await context.addInitScript({ content: RECORD_FRAMES });
  const page = await context.newPage();
  // A document of the station's own origin first (not the app), so the stylesheets load as they do in the app.
  await page.goto(`${new URL(app.url()).origin}/manifest.webmanifest`);
  await page.setContent(html);
  const rows = quotes.map((quote) => ({
    name: quote.name,
    code: quote.code,
    price: formatMoney(quote.price, 'en', priceDigits(quote.market, quote.price)),
    pct: formatPct(quote.changePct),
    move: moveClass(quote.change),
  }));
  await page.evaluate(
    `((rows) => {
      const list = document.querySelector('.quote-rows');
      const template = list.querySelector('li');
      const height = template.offsetHeight;
      list.replaceChildren();
      list.style.height = rows.length * height + 'px';
      rows.forEach((quote, index) => {
        const row = template.cloneNode(true);
        row.dataset.index = String(index);
        row.style.top = index * height + 'px';
        row.querySelector('strong').textContent = quote.name;
        row.querySelector('small').textContent = quote.code;
        const [price, pill] = row.querySelectorAll('a > span.num');
        price.textContent = quote.price;
        pill.textContent = quote.pct;
        for (const span of [price, pill]) {
          span.classList.remove('up', 'down', 'flat');
          span.classList.add(quote.move);
        }
        list.append(row);
      });
    })(${JSON.stringify(rows)})`,
  );
  await page.waitForTimeout(1500);
  return { page, cdp: await context.newCDPSession(page) };
}

interface ScrollRun {
  app: FrameRate;
  noScript: FrameRate;
  rows: number;
  steps: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Opens the A-share list in a fresh phone profile that records its frames, ready to scroll. */
async function openList(
  browser: Browser,
  url: string,
): Promise<{ page: Page; cdp: CDPSession; close: () => Promise<void> }> {
  const context = await newPhoneContext(browser);
  await context.addInitScript({ content: RECORD_FRAMES });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await page.goto(`${url}/trading-list?market=a&lang=en`);
  await page.locator('[data-testid^="quote-row-"]').first().waitFor();
  await page.waitForTimeout(1500);
  return { page, cdp, close: () => context.close() };
}

/**
 * One run: the app's list scrolled to its end, then the same number of flings over the no-script page built
 * from the app's page as it stands. `afterScroll` runs between the two, while the app's page is open.
 */
async function scrollRun(
  browser: Browser,
  app: { page: Page; cdp: CDPSession },
  quotes: Quote[],
  afterScroll: () => Promise<void> = async () => undefined,
): Promise<ScrollRun> {
  let scrolled = { steps: 0, rows: 0 };
  const rate = await frameRate(app.page, app.cdp, async () => {
    scrolled = await scrollToTheEnd(app.page, app.cdp);
  });
  await afterScroll();
  const reference = await staticList(browser, app.page, quotes);
  try {
    const noScript = await frameRate(reference.page, reference.cdp, async () => {
      for (let step = 0; step <= scrolled.steps; step++) await fling(reference.cdp);
    });
    return { app: rate, noScript, ...scrolled };
  } finally {
    await reference.page.context().close();
  }
}

const printRun = (run: ScrollRun) =>
  `app ${printRate(run.app)}; no-script ${printRate(run.noScript)}; ratio ` +
  `${((run.app.fps / run.noScript.fps) * 100).toFixed(1)}%`;

/** Ten details, opened from the top of the list as a user would, each left with the back button. */
async function openDetails(page: Page): Promise<void> {
  await page.evaluate('window.scrollTo(0, 0)');
  // A virtualised list swaps its rows after the scroll: wait until the first row in the page is on screen.
  // (Polled with evaluate: the app's CSP forbids the string eval waitForFunction would use.)
  const firstRowOnScreen = `document.querySelector('[data-testid^="quote-row-"]')?.getBoundingClientRect().top < innerHeight`;
  for (let i = 0; i < 200 && !(await page.evaluate<boolean>(firstRowOnScreen)); i++)
    await page.waitForTimeout(50);
  const codes = await page.evaluate<string[]>(
    `[...document.querySelectorAll('[data-testid^="quote-row-"]')].slice(0, ${DETAILS})` +
      `.map((row) => row.getAttribute('data-testid'))`,
  );
  for (const testId of codes) {
    await page.evaluate('window.scrollTo(0, 0)');
    await page.getByTestId(testId).click();
    await page.waitForURL('**/listdetail**');
    // The quote, not the order book: a stock without one (suspended, no depth yet) shows none.
    await page.getByTestId('detail-price').waitFor({ timeout: 30_000 });
    await page.waitForTimeout(1000); // live prices arrive on the open screen
    await page.goBack();
    await page.locator('[data-testid^="quote-row-"]').first().waitFor();
  }
  await page.waitForTimeout(2000);
}

/** `staticDir`: the built app to serve (dist/ by default), e.g. to compare two builds back to back. */
export async function benchTradingHeapFps(options: { staticDir?: string } = {}): Promise<void> {
  const station = await startE2eStation({}, options);
  const browser = await launchPhoneBrowser();
  try {
    const quotes = await allQuotes(station.url, 'a');
    console.log(
      `\nTrading screens in Chromium 390×844: scroll the whole A-share list with the CPU ${CPU_SLOWDOWN}× ` +
        `slower, the app against its own markup with every row and no script, ${SCROLL_RUNS} run` +
        `${SCROLL_RUNS === 1 ? '' : 's'}`,
    );
    const runs: ScrollRun[] = [];
    let afterScroll = 0;
    let afterDetails = 0;
    for (let i = 0; i < SCROLL_RUNS; i++) {
      const app = await openList(browser, station.url);
      try {
        // The heap is read in the first run only: after its scroll, then after the details, before the next
        // run opens (an open list's live prices would take the CPU from the next run's scroll).
        const run = await scrollRun(browser, app, quotes, async () => {
          if (i === 0) afterScroll = await heapMb(app.cdp);
        });
        runs.push(run);
        console.log(`  run ${i + 1} (${run.rows} rows, ${run.steps} flings): ${printRun(run)}`);
        if (i === 0) {
          await openDetails(app.page);
          afterDetails = await heapMb(app.cdp);
        }
      } finally {
        await app.close();
      }
    }
    const appFps = median(runs.map((r) => r.app.fps));
    const noScriptFps = median(runs.map((r) => r.noScript.fps));
    const ratio = median(runs.map((r) => r.app.fps / r.noScript.fps));
    const appOver50 = median(runs.map((r) => r.app.over50));
    const noScriptOver50 = median(runs.map((r) => r.noScript.over50));
    console.log(
      `  median: app ${appFps.toFixed(1)} fps, no-script ${noScriptFps.toFixed(1)} fps, ratio ` +
        `${(ratio * 100).toFixed(1)}% (target ≥ ${TARGET_RATIO * 100}%: ${ratio >= TARGET_RATIO ? 'within' : 'BELOW'})`,
    );
    console.log(
      `  median frames over 50 ms: app ${appOver50}, no-script ${noScriptOver50} (target: the app's ≤ the ` +
        `no-script page's + 1: ${appOver50 <= noScriptOver50 + 1 ? 'within' : 'OVER'})`,
    );
    console.log(
      `  JS heap after the scroll ${afterScroll.toFixed(1)} MB; after opening ${DETAILS} details with live ` +
        `prices ${afterDetails.toFixed(1)} MB (target < 60 MB: ${afterDetails < 60 ? 'within' : 'OVER'})`,
    );
  } finally {
    await browser.close();
    await station.close();
  }
}

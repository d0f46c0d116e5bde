/**
 * Bench: the trading screens on a low-end phone, in Chromium at 390×844 against a real station
 * whose market moves (the live stream runs).
 * - Frame rate while scrolling the whole A-share list (every page loaded by infinite scroll) with the CPU
 *   slowed 4×: frames per second and the frames over 50 ms. Target: 60 fps, no frame over 50 ms.
 * - The JavaScript heap after that scroll and after opening ten stocks' detail screens from the list
 *   (in-app navigation, live prices running), measured after a garbage collection. Target: under 60 MB.
 * - For reference, the same scroll over a page that is the list's own markup with every row in it from the
 *   start and no script running: what Chromium itself reaches with these rows on this machine, which no
 *   list code can beat. (Repainting the rows that scroll into Chromium's paint area costs it a late frame
 *   now and then on a slow machine, script or not.)
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

/** `staticDir`: the built app to serve (dist/ by default), e.g. to compare two builds back to back. */
export async function benchTradingHeapFps(options: { staticDir?: string } = {}): Promise<void> {
  const station = await startE2eStation({}, options);
  const browser = await launchPhoneBrowser();
  try {
    const context = await newPhoneContext(browser);
    await context.addInitScript({ content: RECORD_FRAMES });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await page.goto(`${station.url}/trading-list?market=a&lang=en`);
    await page.locator('[data-testid^="quote-row-"]').first().waitFor();
    await page.waitForTimeout(1500);

    let scrolled = { steps: 0, rows: 0 };
    const rate = await frameRate(page, cdp, async () => {
      scrolled = await scrollToTheEnd(page, cdp);
    });
    const afterScroll = await heapMb(cdp);
    const reference = await staticList(browser, page, await allQuotes(station.url, 'a'));
    // The same flings over the page that holds every row from the start and runs nothing.
    const ceiling = await frameRate(reference.page, reference.cdp, async () => {
      for (let step = 0; step <= scrolled.steps; step++) await fling(reference.cdp);
    });
    await reference.page.context().close();

    // Ten details, opened from the top of the list as a user would, each left with the back button.
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
      await page.getByTestId('order-book').waitFor({ timeout: 30_000 });
      await page.waitForTimeout(1000); // live prices arrive on the open screen
      await page.goBack();
      await page.locator('[data-testid^="quote-row-"]').first().waitFor();
    }
    await page.waitForTimeout(2000);
    const afterDetails = await heapMb(cdp);

    console.log(
      `\nTrading screens in Chromium 390×844: scroll the whole A-share list (${scrolled.rows} rows, ` +
        `${scrolled.steps} flings) with the CPU ${CPU_SLOWDOWN}× slower`,
    );
    console.log(`  frame rate ${printRate(rate)} (target 60 fps, no frame over 50 ms)`);
    console.log(
      `  the same flings over the list's markup with every row and no script: ${printRate(ceiling)}`,
    );
    console.log(
      `  JS heap after the scroll ${afterScroll.toFixed(1)} MB; after opening ${DETAILS} details with live ` +
        `prices ${afterDetails.toFixed(1)} MB (target < 60 MB: ${afterDetails < 60 ? 'within' : 'OVER'})`,
    );
    await context.close();
  } finally {
    await browser.close();
    await station.close();
  }
}

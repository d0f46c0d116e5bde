/**
 * Bench (issue 11): the trading screens on a low-end phone, in Chromium at 390×844 against a real station
 * whose market moves (the live stream runs).
 * - Frame rate while scrolling the whole A-share list (every page loaded by infinite scroll) with the CPU
 *   slowed 4×: frames per second and the frames over 50 ms. Target: 60 fps, no frame over 50 ms.
 * - The JavaScript heap after that scroll and after opening ten stocks' detail screens from the list
 *   (in-app navigation, live prices running), measured after a garbage collection. Target: under 60 MB.
 * Needs dist/ and Chromium (CHROME_PATH or /usr/bin/chromium).
 */
import type { CDPSession, Page } from 'playwright-core';
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

/**
 * Scrolls as Chromium's own smooth-scroll gesture does (1,500 px at a time, 3,000 px/s) until the list says
 * it has no more rows. (The touch variant of the gesture does not scroll this headless page.)
 */
async function scrollToTheEnd(page: Page, cdp: CDPSession): Promise<{ steps: number; rows: number }> {
  let steps = 0;
  for (; steps < 300; steps++) {
    await cdp.send('Input.synthesizeScrollGesture', {
      x: 195,
      y: 600,
      yDistance: -1500,
      speed: 3000,
      gestureSourceType: 'mouse',
    });
    if ((await page.locator('.list-end').count()) > 0) break;
  }
  // A virtualised list has only the rows near the screen in the page: once it is complete, its length is
  // the set size its rows announce (aria-setsize); without one, the rows in the page.
  const rows = await page.evaluate<number>(
    `Number(document.querySelector('[aria-setsize]')?.getAttribute('aria-setsize') ?? ` +
      `document.querySelectorAll('[data-testid^="quote-row-"]').length)`,
  );
  return { steps, rows };
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

    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    const from = await page.evaluate<number>('performance.now()');
    const scrolled = await scrollToTheEnd(page, cdp);
    const to = await page.evaluate<number>('performance.now()');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    const frames = (await page.evaluate<number[]>('window.__frames')).filter((t) => t >= from && t <= to);
    const gaps = frames.slice(1).map((t, i) => t - frames[i]!);
    const fps = gaps.length / ((to - from) / 1000);
    const over50 = gaps.filter((g) => g > 50);
    const longest = gaps.reduce((max, g) => Math.max(max, g), 0);
    const afterScroll = await heapMb(cdp);

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
    console.log(
      `  frame rate ${fps.toFixed(1)} fps (target 60); frames over 50 ms: ${over50.length} ` +
        `(target 0; longest frame ${longest.toFixed(0)} ms)`,
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

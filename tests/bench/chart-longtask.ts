/**
 * Bench: in Chromium at 390×844 with the CPU slowed 4× (a low-end phone), the longest main-thread task
 * (PerformanceObserver "longtask") while opening a stock's detail screen from the market list and switching
 * the chart's period five times. Target: under 50 ms. Needs dist/ and Chromium (CHROME_PATH or
 * /usr/bin/chromium).
 */
import { launchPhoneBrowser, newPhoneContext, startE2eStation } from '../e2e/harness';

/** Records every long task of the page from its first script on (page code, as text: this file has no DOM types). */
const RECORD_LONG_TASKS = `
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
`;

/**
 * Resolves once an element matches `selector` (page code, as text). One evaluation and a mutation observer
 * instead of playwright's polling: the harness's own queries run on the page's main thread too, and under
 * throttling they would be counted as the page's long tasks.
 */
const untilPresent = (selector: string) => `new Promise((resolve, reject) => {
  const found = () => document.querySelector(${JSON.stringify(selector)}) !== null;
  if (found()) return resolve(true);
  const observer = new MutationObserver(() => {
    if (!found()) return;
    observer.disconnect();
    clearTimeout(timer);
    resolve(true);
  });
  const timer = setTimeout(() => {
    observer.disconnect();
    reject(new Error('not found in 60 s: ' + ${JSON.stringify(selector)}));
  }, 60000);
  observer.observe(document.body, { subtree: true, childList: true, attributes: true });
})`;

const PERIODS = ['5', '60', 'week', 'month', 'day'] as const;
const CPU_SLOWDOWN = 4;

export async function benchChartLongTask(): Promise<void> {
  const station = await startE2eStation();
  const browser = await launchPhoneBrowser();
  try {
    const context = await newPhoneContext(browser);
    await context.addInitScript({ content: RECORD_LONG_TASKS });
    const page = await context.newPage();
    await page.goto(`${station.url}/trading-list?lang=en`);
    const firstRow = page.locator('[data-testid^="quote-row-"]').first();
    await firstRow.waitFor();
    // Let the shell finish its own start-up work before measuring.
    await page.waitForTimeout(1500);

    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    const from = await page.evaluate<number>('performance.now()');
    const t0 = Date.now();
    // The clicks are real mouse events; `force` skips playwright's own checks (visible, stable, enabled,
    // hit target), which run as script on the page's main thread between frames.
    await firstRow.click({ force: true });
    const canvas = page.getByTestId('kline-canvas');
    await page.evaluate(untilPresent('[data-testid="kline-canvas"][data-ready="true"]'));
    const openedMs = Date.now() - t0;
    const switchFrom = await page.evaluate<number>('performance.now()');
    const switches: string[] = [];
    for (const period of PERIODS) {
      const t = Date.now();
      await page.getByTestId(`kline-period-${period}`).click({ force: true });
      await page.evaluate(
        untilPresent(`[data-testid="kline-canvas"][data-ready="true"][data-period="${period}"]`),
      );
      switches.push(`${period} ${Date.now() - t} ms`);
    }
    // Tasks still running when the last chart reports ready are reported by the observer shortly after.
    await page.waitForTimeout(500);
    await canvas.waitFor();
    const tasks = (await page.evaluate<{ start: number; duration: number }[]>('window.__longTasks')).filter(
      (t) => t.start >= from,
    );
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    const longestOf = (list: { duration: number }[]) => list.reduce((max, t) => Math.max(max, t.duration), 0);
    const longest = longestOf(tasks);
    const opening = longestOf(tasks.filter((t) => t.start < switchFrom));
    const switching = longestOf(tasks.filter((t) => t.start >= switchFrom));
    const top = [...tasks]
      .sort((a, b) => b.duration - a.duration)
      .slice(0, 5)
      .map((t) => `${t.duration.toFixed(0)} ms`);
    console.log(
      `\nChromium, CPU ${CPU_SLOWDOWN}× slower: open a detail screen (${openedMs} ms to a drawn chart) and switch the period ` +
        `5 times (${switches.join(', ')})`,
    );
    console.log(
      `  longest main-thread task: ${longest.toFixed(0)} ms (target < 50 ms: ${longest < 50 ? 'within' : 'OVER'}); ` +
        `${tasks.length} long tasks (≥ 50 ms)${top.length ? `; longest: ${top.join(', ')}` : ''}`,
    );
    console.log(
      `  of which: opening the detail screen ${opening.toFixed(0)} ms, switching periods ${switching.toFixed(0)} ms ` +
        '(0 = no task reached 50 ms)',
    );
    await context.close();
  } finally {
    await browser.close();
    await station.close();
  }
}

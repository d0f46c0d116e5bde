/**
 * Touch and theme in Chromium at 390×844 against one always-open station: the K-line chips
 * and the agreement checkbox are 44×44 px touch targets with nothing clipped; the deposit page's radio
 * buttons are drawn in each theme's colours, not the browser's blue; the full-screen K-line lays out in
 * landscape (turned a quarter while the phone is upright) with the volume chart on the screen and touches
 * mapped to the turned chart; and a toast stays above the tab bar. Also the chart's accessible parts:
 * period tabs chosen with the arrow keys, the text summary and the "show as table" control.
 */
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import zhCN from '../../locales/zh-CN';
import { PALETTES } from '../../src/app/theme/palettes';
import { newPhoneContext, stationClient, watchPageErrors, type E2eSession } from './harness';
import { stationForFile } from './file-station';

const e2e = stationForFile();

async function contextFor(
  session: E2eSession | null,
  theme: 'black' | 'red',
  lang: 'en' | 'zh-CN',
  viewport?: { width: number; height: number },
): Promise<BrowserContext> {
  const context = viewport
    ? await e2e.browser.newContext({
        viewport,
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
        locale: 'en-US',
      })
    : await newPhoneContext(e2e.browser);
  await context.addInitScript({
    content:
      (session
        ? `localStorage.setItem('paperdesk.session', ${JSON.stringify(JSON.stringify(session))});`
        : '') +
      `localStorage.setItem('paperdesk.lang', ${JSON.stringify(JSON.stringify(lang))});` +
      `localStorage.setItem('paperdesk.theme', ${JSON.stringify(JSON.stringify(theme))});`,
  });
  return context;
}

/** The chart drawn with its bars. */
async function chartReady(page: Page): Promise<void> {
  await page.locator('[data-testid="kline-canvas"][data-ready="true"]').waitFor();
}

/** Each element's size and whether its text overflows its box. */
async function boxes(page: Page, selector: string) {
  return page.locator(selector).evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return {
        name: (el.textContent ?? '').trim() || el.getAttribute('data-testid') || el.tagName,
        width: r.width,
        height: r.height,
        clipped: el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1,
      };
    }),
  );
}

const hexToRgb = (hex: string) =>
  `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

describe('touch and theme in Chromium at 390×844', () => {
  it('K-line chips, the chart table toggle and the agreement checkbox are 44×44 px with nothing clipped', async () => {
    const context = await contextFor(null, 'red', 'zh-CN');
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${e2e.station.url}/listdetail?code=600000`);
    await chartReady(page);
    // 月K among them: a label that was once clipped.
    expect(await page.getByTestId('kline-period-month').textContent()).toBe(zhCN.chart.period.month);
    const chips = await boxes(page, '.kline-chip, [data-testid="kline-table-toggle"]');
    expect(chips.length).toBeGreaterThan(10);
    for (const chip of chips) {
      expect(chip.width, chip.name).toBeGreaterThanOrEqual(44);
      expect(chip.height, chip.name).toBeGreaterThanOrEqual(44);
      expect(chip.clipped, `${chip.name} clipped`).toBe(false);
    }

    await page.goto(`${e2e.station.url}/register`);
    const agree = page.getByTestId('agree');
    await agree.waitFor();
    const box = (await agree.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(44);
    expect(box.height).toBeGreaterThanOrEqual(44);
    // The whole target ticks it: a tap near its corner, outside the drawn 22 px mark.
    await page.mouse.click(box.x + 4, box.y + 4);
    expect(await agree.isChecked()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('draws the deposit page radio buttons in each theme’s colours, 44×44 px', async () => {
    const session = await stationClient(e2e.station.url).registerUser('1390026');
    for (const theme of ['black', 'red'] as const) {
      const context = await contextFor(session, theme, 'en');
      const page = await context.newPage();
      const errors = watchPageErrors(page);
      await page.goto(`${e2e.station.url}/recharge`);
      const radios = page.locator('input[type="radio"][name="channel"]');
      await radios.first().waitFor();
      const looks = await radios.evaluateAll((els) =>
        els.map((el) => {
          const style = getComputedStyle(el);
          const r = el.getBoundingClientRect();
          return {
            checked: (el as HTMLInputElement).checked,
            appearance: style.appearance,
            image: style.backgroundImage,
            width: r.width,
            height: r.height,
          };
        }),
      );
      expect(looks.length).toBeGreaterThan(1);
      const palette = PALETTES[theme];
      for (const look of looks) {
        // Not the browser's own control (its blue), but the theme's: the accent when chosen, else the ring.
        expect(look.appearance).toBe('none');
        expect(look.image).toContain(hexToRgb(look.checked ? palette.accent : palette.text2));
        expect(look.width).toBeGreaterThanOrEqual(44);
        expect(look.height).toBeGreaterThanOrEqual(44);
      }
      expect(looks.filter((l) => l.checked)).toHaveLength(1);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('lays the full-screen K-line out in landscape, turned while upright, volume on screen, touches mapped', async () => {
    // Upright phone: the view is turned a quarter and fills the screen.
    const context = await contextFor(null, 'black', 'en');
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${e2e.station.url}/kline?code=600000`);
    await chartReady(page);
    const layout = await page.evaluate(() => {
      const screen = document.querySelector('[data-testid="kline-screen"]') as HTMLElement;
      const canvas = document.querySelector('[data-testid="kline-canvas"]') as HTMLElement;
      const subs = document.querySelector('.kline-subs') as HTMLElement;
      const r = screen.getBoundingClientRect();
      const c = canvas.getBoundingClientRect();
      const s = subs.getBoundingClientRect();
      return {
        transform: getComputedStyle(screen).transform,
        screen: [r.left, r.top, r.right, r.bottom].map(Math.round),
        canvasLayout: [canvas.offsetWidth, canvas.offsetHeight],
        canvasOnScreen: c.left >= 0 && c.top >= 0 && c.right <= innerWidth + 1 && c.bottom <= innerHeight + 1,
        subsOnScreen: s.left >= 0 && s.top >= 0 && s.right <= innerWidth + 1 && s.bottom <= innerHeight + 1,
      };
    });
    // rotate(90deg) is matrix(0, 1, -1, 0, …).
    expect(layout.transform).toMatch(/^matrix\(0, 1, -1, 0,/);
    expect(layout.screen).toEqual([0, 0, 390, 844]);
    const [width, height] = layout.canvasLayout as [number, number];
    expect(width).toBeGreaterThan(700);
    expect(height).toBeGreaterThanOrEqual(160);
    expect(layout.canvasOnScreen).toBe(true);
    expect(layout.subsOnScreen).toBe(true);

    // A pointer near the top of the upright screen is near the chart's left end: an old bar in the readout.
    const lastLabel = await page.locator('[data-testid="kline-readout"] .muted').first().textContent();
    const canvasBox = (await page.getByTestId('kline-canvas').boundingBox())!;
    await page.mouse.move(canvasBox.x + canvasBox.width * 0.6, canvasBox.y + canvasBox.height * 0.1);
    await page.waitForFunction(
      (last) => document.querySelector('[data-testid="kline-readout"] .muted')?.textContent !== last,
      lastLabel,
    );
    const hovered = await page.locator('[data-testid="kline-readout"] .muted').first().textContent();
    expect(hovered! < lastLabel!, `${hovered} is before ${lastLabel}`).toBe(true);
    expect(errors).toEqual([]);
    await context.close();

    // Held sideways: no turn, the same layout fills the screen.
    const sideways = await contextFor(null, 'black', 'en', { width: 844, height: 390 });
    const page2 = await sideways.newPage();
    await page2.goto(`${e2e.station.url}/kline?code=600000`);
    await chartReady(page2);
    const flat = await page2.evaluate(() => {
      const screen = document.querySelector('[data-testid="kline-screen"]') as HTMLElement;
      const subs = document.querySelector('.kline-subs')!.getBoundingClientRect();
      return {
        transform: getComputedStyle(screen).transform,
        subsOnScreen: subs.bottom <= innerHeight + 1 && subs.top >= 0,
        canvasHeight: (document.querySelector('[data-testid="kline-canvas"]') as HTMLElement).offsetHeight,
      };
    });
    expect(flat.transform).toBe('none');
    expect(flat.subsOnScreen).toBe(true);
    expect(flat.canvasHeight).toBeGreaterThanOrEqual(160);
    await sideways.close();
  });

  it('keeps a toast above the tab bar', async () => {
    // A stale session: the first call answers "not logged in", which the app says in a toast.
    const context = await contextFor({ token: 'expired-token', user: { id: 1 } }, 'red', 'en');
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    // The rectangles at the moment the toast appears (the app then goes to /login, without a tab bar).
    await page.addInitScript(() => {
      const seen = new MutationObserver(() => {
        const toast = document.querySelector('[data-testid="toast"]');
        const bar = document.querySelector('.tab-bar');
        if (!toast || !bar) return;
        seen.disconnect();
        (window as unknown as { toastSeen: unknown }).toastSeen = {
          toastBottom: toast.getBoundingClientRect().bottom,
          barTop: bar.getBoundingClientRect().top,
        };
      });
      document.addEventListener('DOMContentLoaded', () =>
        seen.observe(document.body, { childList: true, subtree: true }),
      );
    });
    await page.goto(`${e2e.station.url}/warehouse`);
    const seen = (await (
      await page.waitForFunction(() => (window as unknown as { toastSeen?: unknown }).toastSeen)
    ).jsonValue()) as { toastBottom: number; barTop: number };
    expect(seen.toastBottom).toBeLessThanOrEqual(seen.barTop);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('chart: period tabs by arrow keys, a current text summary and the bars as a table', async () => {
    const context = await contextFor(null, 'red', 'en');
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${e2e.station.url}/listdetail?code=600000`);
    await chartReady(page);
    const summary = page.getByTestId('kline-summary');
    expect(await summary.textContent()).toMatch(/^600000 Day: last [\d,.]+, (up|down|unchanged) /);
    expect(await summary.textContent()).toMatch(/MA5 [\d,.]+/);
    // One tab stop for the periods; the arrow key chooses the next one and the chart follows.
    const tabs = page.locator('[role="tablist"] [role="tab"]');
    expect(await tabs.count()).toBe(8);
    expect(await page.locator('[role="tablist"] [role="tab"][tabindex="0"]').count()).toBe(1);
    await page.getByTestId('kline-period-day').focus();
    await page.keyboard.press('ArrowRight');
    // React applies the choice on its next render: wait for it rather than read at once.
    await page.locator('[data-testid="kline-period-week"][aria-selected="true"]').waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'kline-period-week',
    );
    await page.locator('[data-testid="kline-canvas"][data-period="week"][data-ready="true"]').waitFor();
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="kline-summary"]')?.textContent?.startsWith('600000 Week:'),
    );
    // The table: the bars in view, newest first, the newest closing at the summary's last price.
    const toggle = page.getByTestId('kline-table-toggle');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const rows = page.locator('[data-testid="kline-table"] tbody tr');
    expect(await rows.count()).toBe(Number(/over the (\d+) bars/.exec((await summary.textContent())!)![1]));
    const newestClose = await rows.first().locator('td').nth(3).textContent();
    expect(await summary.textContent()).toContain(`last ${newestClose}`);
    expect(errors).toEqual([]);
    await context.close();
  });
});

/**
 * The first paint without JavaScript (vite.config.ts prerenderShells): each tab route's HTML holds its shell
 * (notice strip, header, tab bar) and the screen's first frame, styled, before any script runs; the head
 * script marks what the build could not know (black theme, another language, a held session); the app takes
 * the markup over without a layout shift; the service worker answers a tab route offline with the same page.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { TAB_PATHS } from '../../src/app/state/shell';
import zhCN from '../../locales/zh-CN';
import { newPhoneContext, offlineReady, watchPageErrors } from './harness';
import { stationForFile } from './file-station';

const e2e = stationForFile();

/** The title each tab's header shows (the home screen has no header). */
const HEADER_TITLES: Record<string, string | null> = {
  '/home': null,
  '/trading-list': zhCN.titles.tradingList,
  '/hk-list': zhCN.titles.hkList,
  '/warehouse': zhCN.titles.warehouse,
  '/MyList': zhCN.titles.myList,
  '/user': zhCN.titles.user,
};

/** What the first frame shows, read from the DOM. */
async function shellOnScreen(page: Page) {
  return page.evaluate(() => {
    const box = (selector: string) => {
      const element = document.querySelector(selector);
      if (!element) return null;
      const rect = element.getBoundingClientRect();
      return { top: rect.top, bottom: rect.bottom, height: rect.height, text: element.textContent ?? '' };
    };
    return {
      notice: box('[role="note"].notice-strip'),
      header: box('header.page-header h1'),
      tabBar: box('nav.tab-bar'),
      tabs: document.querySelectorAll('nav.tab-bar a[href]').length,
      selected: document.querySelector('nav.tab-bar a[aria-current="page"]')?.getAttribute('href') ?? null,
      background: getComputedStyle(document.body).backgroundColor,
      noticeColor: getComputedStyle(document.querySelector('.notice-strip') ?? document.body).color,
    };
  });
}

describe('the first paint without JavaScript', () => {
  it('every tab route arrives with its notice strip, header and tab bar in place, JavaScript off', async () => {
    const context = await e2e.browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      javaScriptEnabled: false,
    });
    try {
      const page = await context.newPage();
      for (const path of TAB_PATHS) {
        await page.goto(`${e2e.station.url}${path}`);
        const shell = await shellOnScreen(page);
        expect(shell.notice?.text, path).toBe(zhCN.notice.testStation);
        expect(shell.notice?.top, path).toBe(0);
        const title = HEADER_TITLES[path];
        if (title) expect(shell.header?.text, path).toBe(title);
        else expect(shell.header, path).toBeNull();
        // The tab bar, styled: fixed to the bottom of the phone's screen.
        expect(shell.tabs, path).toBe(TAB_PATHS.length);
        expect(shell.selected, path).toBe(path);
        expect(shell.tabBar?.bottom, path).toBe(844);
        expect(await page.title(), path).toContain('PaperDesk');
      }
      // The stock detail, whatever its code: the header with its back button and the screen loading.
      await page.goto(`${e2e.station.url}/listdetail?code=00700`);
      const detail = await shellOnScreen(page);
      expect(detail.notice?.text).toBe(zhCN.notice.testStation);
      expect(detail.header?.text).toBe(zhCN.titles.listDetail);
      expect(detail.tabs).toBe(0);
      // Its links work as plain links.
      await page.goto(`${e2e.station.url}/home`);
      await page.click('nav.tab-bar a[href="/hk-list"]');
      await page.waitForURL('**/hk-list');
      expect((await shellOnScreen(page)).header?.text).toBe(zhCN.titles.hkList);
    } finally {
      await context.close();
    }
  });

  it('paints the stored theme, and hides what another language or a held session would show wrong', async () => {
    const context = await newPhoneContext(e2e.browser);
    try {
      // The app's code never arrives: what shows is the HTML and its head script alone.
      await context.route('**/assets/*.js', (route) => route.abort());
      const page = await context.newPage();
      await page.goto(`${e2e.station.url}/trading-list`);
      const light = await shellOnScreen(page);
      expect(light.background).toBe('rgb(244, 245, 247)');

      await page.evaluate(() => localStorage.setItem('paperdesk.theme', JSON.stringify('black')));
      await page.goto(`${e2e.station.url}/trading-list`);
      const dark = await shellOnScreen(page);
      // The black palette (src/app/theme/palettes.ts) before any of the app's code ran.
      expect(dark.background).toBe('rgb(15, 16, 20)');
      expect(dark.noticeColor).toBe('rgb(243, 213, 143)');

      // Another language: the frame keeps its shapes, without the default language's words.
      await page.goto(`${e2e.station.url}/trading-list?lang=en`);
      const other = await shellOnScreen(page);
      expect(other.noticeColor).toBe('rgba(0, 0, 0, 0)');
      expect(other.tabBar?.bottom).toBe(844);

      // A held session: a screen drawn for a logged-out visitor is not shown; the shell is.
      await page.evaluate(() =>
        localStorage.setItem('paperdesk.session', JSON.stringify({ token: 't', user: null })),
      );
      await page.goto(`${e2e.station.url}/warehouse`);
      const prompt = page.locator('main .logged-out');
      expect(await prompt.count()).toBe(1);
      expect(await prompt.isVisible()).toBe(false);
      expect((await shellOnScreen(page)).header?.text).toBe(zhCN.titles.warehouse);
      await page.evaluate(() => localStorage.removeItem('paperdesk.session'));
      await page.goto(`${e2e.station.url}/warehouse`);
      expect(await prompt.isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('the app takes the markup over without a layout shift (CLS 0 in a trace)', async () => {
    const context = await newPhoneContext(e2e.browser);
    try {
      const page = await context.newPage();
      const errors = watchPageErrors(page);
      for (const path of ['/trading-list', '/home', '/user']) {
        await e2e.browser.startTracing(page, { categories: ['loading', 'devtools.timeline'] });
        await page.goto(`${e2e.station.url}${path}`);
        // The app's own markup (the prerendered frame carries no test ids), and its first data.
        await page.getByTestId('test-station-notice').waitFor();
        await page.waitForLoadState('networkidle');
        const trace = JSON.parse((await e2e.browser.stopTracing()).toString('utf8')) as {
          traceEvents: { name: string; args?: { data?: { score?: number; had_recent_input?: boolean } } }[];
        };
        const shifts = trace.traceEvents.filter(
          (event) => event.name === 'LayoutShift' && !event.args?.data?.had_recent_input,
        );
        const cls = shifts.reduce((sum, event) => sum + (event.args?.data?.score ?? 0), 0);
        expect(cls, path).toBe(0);
        // The trace did record the page's loading (so an empty list is not a broken trace).
        expect(
          trace.traceEvents.some((event) => event.name === 'firstContentfulPaint'),
          path,
        ).toBe(true);
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('offline, the service worker answers a tab route with the same prerendered page', async () => {
    const context = await newPhoneContext(e2e.browser);
    try {
      const page = await context.newPage();
      await page.goto(`${e2e.station.url}/home`);
      await offlineReady(page);
      const online = await (await fetch(`${e2e.station.url}/hk-list`)).text();
      await context.setOffline(true);
      const response = await page.goto(`${e2e.station.url}/hk-list`);
      expect(response?.fromServiceWorker()).toBe(true);
      expect(await response?.text()).toBe(online);
      expect(online).toContain('data-prerendered');
      await page.getByTestId('test-station-notice').waitFor();
    } finally {
      await context.close();
    }
  });
});

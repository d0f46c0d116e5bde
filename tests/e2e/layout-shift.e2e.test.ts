/**
 * No layout shift while a screen's data arrives (CLS 0 in a Chrome trace, 4× CPU throttling as Lighthouse's
 * mobile run): from the prerendered first frame, through the app's loading states, until the screen shows
 * its data — the positions and the accounts' summary, the watchlist, the personal centre with a risk gauge
 * (logged in, as a user who holds a leveraged position and watches three stocks), the Hong Kong list and a
 * stock's detail (its figures, order book and chart). The station's clock is pinned, so prices do not move
 * while a trace runs: what could shift is the arrival of data, not a price tick.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { FixedClock } from '../../server/market/clock';
import type { User } from '../../src/shared/api/types';
import { newPhoneContext, stationClient, watchPageErrors, type E2eSession } from './harness';
import { stationForFile } from './file-station';

/** Wednesday 2025-03-12 02:00 UTC: a trading morning in Shanghai. */
const T0 = Date.UTC(2025, 2, 12, 2, 0, 0);
const e2e = stationForFile({}, { clock: new FixedClock(T0) });

/** Lighthouse's mobile run slows the CPU four times: loading states last long enough to be painted. */
const CPU_SLOWDOWN = 4;

interface LayoutShiftEvent {
  name: string;
  args?: {
    data?: {
      score?: number;
      had_recent_input?: boolean;
      impacted_nodes?: { old_rect?: number[]; new_rect?: number[] }[];
    };
  };
}

/** A user who holds a leveraged A-share and a US stock and watches three stocks. */
async function userWithPortfolio(url: string): Promise<E2eSession> {
  const client = stationClient(url);
  const { token } = await client.registerUser('1390091');
  for (const [code, leverage] of [
    ['600000', 2],
    ['AAPL', 1],
  ] as const) {
    await client.call('POST', '/user/buy.do', token, {
      code,
      lots: 1,
      leverage,
      requestId: crypto.randomUUID(),
    });
  }
  for (const code of ['600000', '000001', 'AAPL']) {
    await client.call('POST', '/user/addOption.do', token, { code });
  }
  // The session as the app keeps it: every fresh answer about the user is stored in it (query-client.ts).
  return { token, user: await client.call<User>('GET', '/user/getUserInfo.do', token) };
}

/**
 * The layout shifts (without recent input) recorded from opening `path` until `ready` says the screen shows its
 * data and the network is quiet: their summed score and where each moved (old → new rect).
 */
async function shiftsWhileLoading(
  path: string,
  session: E2eSession | null,
  ready: (page: Page) => Promise<unknown>,
): Promise<{ cls: number; moves: string[]; painted: boolean; errors: string[] }> {
  const context = await newPhoneContext(e2e.browser);
  try {
    if (session) {
      await context.addInitScript({
        content: `localStorage.setItem('paperdesk.session', ${JSON.stringify(JSON.stringify(session))});`,
      });
    }
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await e2e.browser.startTracing(page, { categories: ['loading', 'devtools.timeline'] });
    await page.goto(`${e2e.station.url}${path}`);
    await page.getByTestId('test-station-notice').waitFor();
    await ready(page);
    await page.waitForLoadState('networkidle');
    // The frame that shows the data is painted (a shift is recorded at paint).
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    const trace = JSON.parse((await e2e.browser.stopTracing()).toString('utf8')) as {
      traceEvents: LayoutShiftEvent[];
    };
    const shifts = trace.traceEvents.filter(
      (event) => event.name === 'LayoutShift' && !event.args?.data?.had_recent_input,
    );
    return {
      cls: shifts.reduce((sum, event) => sum + (event.args?.data?.score ?? 0), 0),
      moves: shifts.flatMap((event) =>
        (event.args?.data?.impacted_nodes ?? []).map(
          (node) => `${JSON.stringify(node.old_rect)} → ${JSON.stringify(node.new_rect)}`,
        ),
      ),
      painted: trace.traceEvents.some((event) => event.name === 'firstContentfulPaint'),
      errors,
    };
  } finally {
    await context.close();
  }
}

/** Waits until every locator is on screen. */
const allShown = (...locators: ReturnType<Page['getByTestId']>[]) =>
  Promise.all(locators.map((locator) => locator.waitFor()));

/** Each screen opened in a fresh profile: no shift on any (all are measured, then compared at once). */
async function expectNoShift(
  screens: [string, (page: Page) => Promise<unknown>][],
  session: E2eSession | null,
): Promise<void> {
  const results = [];
  for (const [path, ready] of screens) {
    const { cls, moves, painted, errors } = await shiftsWhileLoading(path, session, ready);
    // `painted`: the trace did record the page's loading (so no shift is not a broken trace).
    results.push({ path, cls, moves, painted, errors });
  }
  expect(results).toEqual(screens.map(([path]) => ({ path, cls: 0, moves: [], painted: true, errors: [] })));
}

describe('no layout shift while the data arrives (CLS 0, 4× slower CPU)', () => {
  it('the positions, the watchlist and the personal centre, logged in with a portfolio', async () => {
    const session = await userWithPortfolio(e2e.station.url);
    const screens: [string, (page: Page) => Promise<unknown>][] = [
      [
        '/warehouse',
        (page) =>
          Promise.all([
            allShown(page.getByTestId('summary-CNY'), page.getByTestId('summary-USD')),
            page.getByTestId('positions-open').getByTestId('position-row').nth(1).waitFor(),
          ]),
      ],
      [
        '/MyList',
        (page) =>
          allShown(
            page.getByTestId('watch-row-600000'),
            page.getByTestId('watch-row-000001'),
            page.getByTestId('watch-row-AAPL'),
          ),
      ],
      [
        '/user',
        (page) => allShown(page.getByTestId('account-main-risk'), page.getByTestId('account-us-balance')),
      ],
    ];
    await expectNoShift(screens, session);
  });

  it('the Hong Kong list and a stock detail, logged out', async () => {
    const screens: [string, (page: Page) => Promise<unknown>][] = [
      ['/hk-list', (page) => page.getByTestId('quote-list-hk').locator('.quote-row').first().waitFor()],
      [
        '/listdetail?code=600000',
        (page) =>
          Promise.all([
            allShown(page.getByTestId('order-book'), page.getByTestId('figure-market-cap')),
            page.locator('[data-testid="kline-canvas"][data-bars]:not([data-bars="0"])').waitFor(),
            page.getByTestId('stock-news').locator('ul, [data-testid="empty"]').waitFor(),
          ]),
      ],
    ];
    await expectNoShift(screens, null);
  });
});

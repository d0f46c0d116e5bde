import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { FixedClock } from '../../server/market/clock';
import { newPhoneContext, watchPageErrors } from './harness';
import { stationForFile } from './file-station';

/** Wednesday 2025-03-12 02:00 UTC: 10:00 in Shanghai, so today's minute bars exist. */
const T0 = Date.UTC(2025, 2, 12, 2, 0, 0);
const CODE = '600000';

let url: string;
const clock = new FixedClock(T0);

const e2e = stationForFile({}, { clock }, (station) => {
  ({ url } = station);
});

const canvas = (page: Page) => page.getByTestId('kline-canvas');

/** Waits until the chart has drawn these bars (the worker's series handed to echarts). */
async function waitDrawn(page: Page, attrs: Record<string, string>) {
  const selector = Object.entries({ ready: 'true', ...attrs })
    .map(([k, v]) => `[data-${k}="${v}"]`)
    .join('');
  // The bars are read from the very element that matched, once it holds some: during a route change the
  // leaving screen's chart and the arriving one's can both be in the page for a moment.
  const drawn = page
    .locator(`[data-testid="kline-canvas"]${selector}[data-bars]:not([data-bars="0"])`)
    .first();
  await drawn.waitFor({ timeout: 60_000 });
  const bars = Number(await drawn.getAttribute('data-bars'));
  expect(bars, JSON.stringify(attrs)).toBeGreaterThan(0);
  return bars;
}

/**
 * True when the chart's canvas has pixels of more than one colour: something was drawn. The chart paints in
 * an animation frame after it reports its bars (data-ready), so callers poll this.
 */
async function canvasHasDrawing(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const el = document.querySelector<HTMLCanvasElement>('[data-testid="kline-canvas"] canvas');
    if (!el) return false;
    const probe = document.createElement('canvas');
    probe.width = 64;
    probe.height = 64;
    const ctx = probe.getContext('2d');
    if (!ctx) return false;
    ctx.drawImage(el, 0, 0, 64, 64);
    const data = ctx.getImageData(0, 0, 64, 64).data;
    const colours = new Set<number>();
    for (let i = 0; i < data.length; i += 4)
      colours.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
    return colours.size > 3;
  });
}

/** The readout's bar: its label and its open, high, low, close and volume as shown ("O 12.34" → "12.34"). */
async function readoutBar(page: Page): Promise<{ label: string; values: string[] }> {
  const spans = await page.locator('[data-testid="kline-readout"] > div:first-child > span').allInnerTexts();
  const [label = '', ...rest] = spans;
  return { label, values: rest.map((text) => text.replace(/^\S+\s+/, '')) };
}

/** A table row's open, high, low, close and volume, as shown. */
async function tableRow(page: Page, which: 'first' | 'last'): Promise<string[]> {
  const rows = page.locator('[data-testid="kline-table"] tbody tr');
  return (which === 'first' ? rows.first() : rows.last()).locator('td').allInnerTexts();
}

describe('K-line chart in Chromium at 390×844', () => {
  it('draws every period and every price adjustment on the detail screen', async () => {
    const context = await newPhoneContext(e2e.browser);
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${url}/listdetail?code=${CODE}&lang=en`);
    await page.getByTestId('detail-price').waitFor();
    await waitDrawn(page, { period: 'day', adjust: 'none' });
    await expect.poll(() => canvasHasDrawing(page), { timeout: 15_000 }).toBe(true);

    const drawn: Record<string, number> = {};
    for (const period of ['intraday', '1', '5', '30', '60', 'week', 'month', 'day']) {
      await page.getByTestId(`kline-period-${period}`).click();
      drawn[period] = await waitDrawn(page, { period });
    }
    // A day has more 1-minute bars than 60-minute ones; the history has more days than months.
    expect(drawn['1']).toBeGreaterThan(drawn['60']!);
    expect(drawn.day).toBeGreaterThan(drawn.month!);

    for (const adjust of ['forward', 'backward', 'none']) {
      await page.getByTestId(`kline-adjust-${adjust}`).click();
      await waitDrawn(page, { period: 'day', adjust });
      await expect.poll(() => canvasHasDrawing(page), { timeout: 15_000 }).toBe(true);
    }

    // Indicators: the overlay and the sub-chart switch without a new history.
    await page.getByTestId('kline-overlay-boll').click();
    await waitDrawn(page, { overlay: 'boll' });
    for (const sub of ['macd', 'kdj', 'rsi', 'vol']) {
      await page.getByTestId(`kline-sub-${sub}`).click();
      await waitDrawn(page, { sub });
    }
    expect(await page.getByTestId('kline-readout').innerText()).toMatch(/Mid .*Upper .*Lower/s);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens the full-screen /kline chart from the detail screen', async () => {
    const context = await newPhoneContext(e2e.browser);
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${url}/listdetail?code=${CODE}&lang=en`);
    await waitDrawn(page, { period: 'day' });
    await page.getByTestId('kline-fullscreen').click();
    await page.waitForURL(/\/kline\?code=600000/);
    // The detail screen's chart leaves; the full-screen one is the only chart left.
    await expect.poll(() => canvas(page).count(), { timeout: 30_000 }).toBe(1);
    await waitDrawn(page, { period: 'day' });
    const height = await canvas(page).evaluate((el) => el.getBoundingClientRect().height);
    expect(height).toBeGreaterThan(400);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('draws an index and a future from their own K-line calls, without price adjustment, and full screen', async () => {
    const context = await newPhoneContext(e2e.browser);
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    const asked: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (/K(_Echarts)?\.do$/.test(path)) asked.push(path);
    });
    for (const [code, market, dayCall] of [
      ['SH000300', 'index', '/api/stock/getIndexDayK.do'],
      ['IF0', 'futures', '/api/stock/getFuturesDayK.do'],
    ] as const) {
      await page.goto(`${url}/listdetail2?code=${code}&market=${market}&lang=en`);
      await waitDrawn(page, { period: 'day' });
      await expect.poll(() => canvasHasDrawing(page), { timeout: 15_000 }).toBe(true);
      expect(asked).toContain(dayCall);
      // Points of an index or a futures price are not adjusted for dividends: no adjustment to choose.
      expect(await page.getByTestId('kline-adjust-forward').count()).toBe(0);
      await page.getByTestId('kline-period-5').click();
      await waitDrawn(page, { period: '5' });
      expect(asked).toContain(dayCall.replace('DayK', 'MinK_Echarts'));
      await page.getByTestId('kline-fullscreen').click();
      await page.waitForURL(new RegExp(`/kline\\?code=${code}&market=${market}`));
      await expect.poll(() => canvas(page).count(), { timeout: 30_000 }).toBe(1);
      await waitDrawn(page, { period: 'day' });
    }
    expect(asked.filter((path) => path === '/api/stock/getDayK.do')).toEqual([]);
    expect(await page.getByTestId('error').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('moves the last candle with the live quote stream, without polling', async () => {
    const context = await newPhoneContext(e2e.browser);
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(`${url}/kline?code=${CODE}&lang=en`);
    const bars = await waitDrawn(page, { period: 'day' });
    // The chart is on the page's shared quote stream, so its polling fallback is off.
    await waitDrawn(page, { live: 'stream' });
    expect(requests.filter((u) => u.includes('/api/stream/quotes?codes=600000'))).toHaveLength(1);
    const dayReads = () => requests.filter((u) => u.includes('/api/stock/getDayK.do')).length;
    const readsBefore = dayReads();
    const before = await canvas(page).getAttribute('data-last-candle');
    const version = Number(await canvas(page).getAttribute('data-version'));
    expect(before).toMatch(/^[\d.]+,[\d.]+,[\d.]+,[\d.]+$/);

    // Trading time passes on the station's clock until the day's close has moved; the stream's next tick
    // carries the day so far, which goes to the worker's updateLastBar and redraws that candle.
    const [, closeBefore] = before!.split(',').map(Number);
    let latest: number[] = [];
    for (let step = 0; step < 24; step++) {
      clock.advance(10 * 60_000);
      const answer = (await (
        await fetch(`${url}/api/stock/getDayK.do?code=${CODE}&period=day&adjust=none&limit=1`)
      ).json()) as { data: { bars: number[][] } };
      latest = answer.data.bars.at(-1)!;
      if (latest[4] !== closeBefore) break;
    }
    expect(latest[4], 'the simulated market never moved the close').not.toBe(closeBefore);
    const [, open, high, low, close] = latest;
    await expect
      .poll(async () => canvas(page).getAttribute('data-last-candle'), { timeout: 20_000 })
      .toBe(`${open},${close},${low},${high}`);
    expect(Number(await canvas(page).getAttribute('data-version'))).toBeGreaterThan(version);
    // Same day: the candle moved, no bar was added; and no bars were read again: the stream did it.
    expect(Number(await canvas(page).getAttribute('data-bars'))).toBe(bars);
    expect(dayReads()).toBe(readsBefore);
    expect(await page.getByTestId('kline-readout-close').innerText()).toContain(close!.toFixed(2));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('moves the detail screen price with the stream while its refresh fails', async () => {
    const context = await newPhoneContext(e2e.browser);
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    const streams: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/stream/quotes')) streams.push(request.url());
    });
    await page.goto(`${url}/listdetail?code=${CODE}&lang=en`);
    await waitDrawn(page, { period: 'day', live: 'stream' });
    const price = page.getByTestId('detail-price');
    const shown = Number(await price.getAttribute('data-value'));
    // The header and the chart share one connection for the code.
    expect(streams.map((u) => new URL(u).searchParams.get('codes'))).toEqual(['600000']);
    // From now on the screen's detail refresh cannot reach the station: only the stream can move the price.
    await page.route('**/api/stock/getSingleStock.do**', (route) => route.abort());
    let moved = shown;
    for (let step = 0; step < 24 && moved === shown; step++) {
      clock.advance(10 * 60_000);
      const answer = (await (await fetch(`${url}/api/stock/getSingleStock.do?code=${CODE}`)).json()) as {
        data: { price: number };
      };
      moved = answer.data.price;
    }
    expect(moved, 'the simulated market never moved the price').not.toBe(shown);
    await expect
      .poll(async () => Number(await price.getAttribute('data-value')), { timeout: 20_000 })
      .toBe(moved);
    expect(await page.getByTestId('buy-button').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('appends the new minutes of the intraday view as the market trades', async () => {
    const context = await newPhoneContext(e2e.browser);
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${url}/kline?code=${CODE}&lang=en`);
    await waitDrawn(page, { period: 'day' });
    await page.getByTestId('kline-period-intraday').click();
    const before = await waitDrawn(page, { period: 'intraday' });

    // Minutes of trading pass until at least two new bars exist (a lunch break has none); the refresh
    // appends them through the worker's appendBar.
    let rows: number[][] = [];
    for (let minute = 0; minute < 240 && rows.length < before + 2; minute++) {
      clock.advance(60_000);
      const answer = (await (
        await fetch(`${url}/api/stock/getMinK_Echarts.do?code=${CODE}&period=intraday`)
      ).json()) as { data: { bars: number[][] } };
      rows = answer.data.bars;
    }
    expect(rows.length).toBeGreaterThanOrEqual(before + 2);
    const [, open, high, low, close] = rows.at(-1)!;
    await expect
      .poll(async () => Number(await canvas(page).getAttribute('data-bars')), { timeout: 20_000 })
      .toBe(rows.length);
    await expect
      .poll(async () => canvas(page).getAttribute('data-last-candle'), { timeout: 10_000 })
      .toBe(`${open},${close},${low},${high}`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lists the bars in view as a table after a zoom and a pan, not the bars the chart opened with', async () => {
    const context = await newPhoneContext(e2e.browser);
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${url}/listdetail?code=${CODE}&lang=en`);
    await waitDrawn(page, { period: 'day' });
    await expect.poll(() => canvasHasDrawing(page), { timeout: 15_000 }).toBe(true);
    const summary = page.getByTestId('kline-summary');
    const countInSummary = async () =>
      Number(/over the (\d+) bars/.exec((await summary.textContent()) ?? '')?.[1]);
    const opened = await countInSummary();
    expect(opened).toBeGreaterThan(30);
    const latest = (await readoutBar(page)).label;

    // Zoom in with the wheel, then drag the chart right: older bars come into view.
    await canvas(page).scrollIntoViewIfNeeded();
    const box = (await canvas(page).boundingBox())!;
    const middle = { x: box.x + box.width / 2, y: box.y + box.height * 0.3 };
    await page.mouse.move(middle.x, middle.y);
    await page.mouse.wheel(0, -360);
    await page.mouse.down();
    await page.mouse.move(middle.x + 120, middle.y, { steps: 8 });
    await page.mouse.up();
    await expect.poll(countInSummary, { timeout: 15_000 }).toBeLessThan(opened);

    // The crosshair at the main grid's left and right edges (kline-option: 52 px and 8 px in) reads the
    // first and the last bar in view, as the worker's echarts sees them.
    await page.mouse.move(box.x + 54, middle.y);
    await expect.poll(async () => (await readoutBar(page)).label, { timeout: 10_000 }).not.toBe(latest);
    const first = await readoutBar(page);
    await page.mouse.move(box.x + box.width - 10, middle.y);
    await expect.poll(async () => (await readoutBar(page)).label, { timeout: 10_000 }).not.toBe(first.label);
    const last = await readoutBar(page);
    expect(last.label, 'the pan left the newest bar in view').not.toBe(latest);

    await page.getByTestId('kline-table-toggle').click();
    await page.getByTestId('kline-table').waitFor();
    // Newest first: the table starts with the last bar in view and ends with the first. Both edges are read
    // again beside the table until they agree: on a busy machine the worker may still have been applying the
    // drag's last moves when they were read above (the first edge then read a bar the pan went past).
    await canvas(page).scrollIntoViewIfNeeded();
    const view = (await canvas(page).boundingBox())!;
    const edgeAgrees = async (x: number, row: 'first' | 'last') => {
      await page.mouse.move(x + 2, view.y + view.height * 0.3);
      await page.mouse.move(x, view.y + view.height * 0.3);
      const edge = await readoutBar(page);
      return JSON.stringify(edge.values) === JSON.stringify(await tableRow(page, row));
    };
    await expect.poll(() => edgeAgrees(view.x + view.width - 10, 'first'), { timeout: 10_000 }).toBe(true);
    await expect.poll(() => edgeAgrees(view.x + 54, 'last'), { timeout: 10_000 }).toBe(true);
    expect(await tableRow(page, 'last')).not.toEqual(await tableRow(page, 'first'));
    const rows = await page.locator('[data-testid="kline-table"] tbody tr').count();
    expect(rows).toBe(await countInSummary());
    expect(rows).toBeLessThan(opened);
    expect(errors).toEqual([]);
    await context.close();
  });
});

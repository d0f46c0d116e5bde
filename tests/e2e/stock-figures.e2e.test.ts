import { describe, expect, it } from 'vitest';
import type { StockFigures } from '../../src/shared/api/types';
import { formatBigNumber, formatRate } from '../../src/shared/format';
import { FixedClock } from '../../server/market/clock';
import { newPhoneContext, watchPageErrors } from './harness';
import { stationForFile } from './file-station';

/** A pinned moment: the figures and the news are the same on every run. */
const T0 = Date.UTC(2025, 2, 12, 2, 0, 0);

let url: string;
const e2e = stationForFile({}, { clock: new FixedClock(T0) }, (station) => {
  ({ url } = station);
});

const FIGURES = [
  'figure-market-cap',
  'figure-pe',
  'figure-turnover-rate',
  'figure-high-52w',
  'figure-low-52w',
  'figure-shares',
  'figure-dividend-yield',
];

async function figuresOf(code: string): Promise<StockFigures> {
  const res = await fetch(`${url}/api/stock/getStockFigures.do?code=${code}`);
  return ((await res.json()) as { data: StockFigures }).data;
}

describe("A stock's figures and own news on its detail screen, in Chromium at 390×844", () => {
  it.each([
    ['600000', 'en'],
    ['AAPL', 'zh-CN'],
  ])('shows %s figures under the quote and its news, and opens a news item (%s)', async (code, lang) => {
    const context = await newPhoneContext(e2e.browser);
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${url}/listdetail?code=${code}&lang=${lang}`);
    const expected = await figuresOf(code);

    const cap = page.getByTestId('figure-market-cap');
    await cap.waitFor();
    expect(await cap.innerText()).toBe(`${formatBigNumber(expected.marketCap, lang)} ${expected.currency}`);
    expect(await page.getByTestId('figure-turnover-rate').innerText()).toBe(
      formatRate(expected.turnoverRate, lang),
    );
    expect(await page.getByTestId('figure-dividend-yield').innerText()).toBe(
      formatRate(expected.dividendYield, lang),
    );
    for (const id of FIGURES) expect((await page.getByTestId(id).innerText()).trim()).not.toBe('');

    const rows = page.getByTestId('stock-news-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBeGreaterThan(0);
    const row = await rows.first().boundingBox();
    expect(row!.height).toBeGreaterThanOrEqual(44);
    const title = (await rows.first().locator('strong').innerText()).trim();
    await rows.first().click();
    await page.waitForURL(new RegExp(`/newPage\\?stock=${code}-\\d{8}-`));
    const detail = page.getByTestId('news-detail');
    await detail.waitFor();
    expect((await detail.locator('h2').innerText()).trim()).toBe(title);
    expect(errors).toEqual([]);
    await context.close();
  });
});

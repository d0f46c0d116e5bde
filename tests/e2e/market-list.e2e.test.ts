import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPhoneContext, watchPageErrors } from './harness';
import { stationForFile } from './file-station';

/** QuoteList's row height (px). */
const ROW = 58;

const e2e = stationForFile();

/**
 * The rows of the list that the screen shows by its scroll position, and which of them are missing from the
 * page (a virtualised list must never show a gap), with the codes of the rows on screen.
 */
async function screenRows(page: Page) {
  // The scroll event (and what the list renders in it) comes with the next frame.
  await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
  return page.evaluate((row) => {
    const list = document.querySelector<HTMLElement>('.quote-rows')!;
    const top = list.getBoundingClientRect().top;
    const loaded = Math.round(list.getBoundingClientRect().height / row);
    const first = Math.max(0, Math.floor(-top / row));
    const last = Math.min(loaded, Math.ceil((innerHeight - top) / row)) - 1;
    const inPage = new Map(
      [...list.querySelectorAll<HTMLElement>(':scope > li')].map((li) => [Number(li.dataset.index), li]),
    );
    const missing: number[] = [];
    const codes: string[] = [];
    for (let index = first; index <= last; index++) {
      const li = inPage.get(index);
      if (!li) missing.push(index);
      else codes.push(li.querySelector('a')!.dataset.testid!.replace('quote-row-', ''));
    }
    return { first, last, loaded, missing, codes, inPage: inPage.size };
  }, ROW);
}

describe('the market list (a long, virtualised list)', () => {
  it('builds rows ahead of the screen, never shows a gap while scrolled, loads every page and comes back to the top', async () => {
    const total = (
      (await (
        await fetch(`${e2e.station.url}/api/stock/getStock.do?market=a&pageNum=1&pageSize=1`)
      ).json()) as {
        data: { total: number };
      }
    ).data.total;
    expect(total).toBeGreaterThan(300);
    const context = await newPhoneContext(e2e.browser);
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${e2e.station.url}/trading-list?market=a&lang=en`);
    await page.locator('[data-testid^="quote-row-"]').first().waitFor();
    // A stock's name comes in the interface's language (the exchange's English name here), so it carries
    // no language of its own.
    const firstName = page.locator('[data-testid^="quote-row-"] strong').first();
    expect(await firstName.getAttribute('lang')).toBeNull();
    expect(await firstName.textContent()).toMatch(/^[\x20-\x7e]+$/);

    // At rest, the rows below the screen are built in idle time: every row of the first page, more than fit.
    const onScreen = Math.ceil(844 / ROW);
    await expect
      .poll(async () => {
        const rows = await screenRows(page);
        return rows.inPage === rows.loaded && rows.loaded > onScreen;
      })
      .toBe(true);

    // Scrolled down by less than a screen at a time: every row on screen is in the page at once, in order.
    const seen: string[] = [];
    for (let step = 0; step < 400; step++) {
      if (step > 0) await page.evaluate('window.scrollBy(0, 600)');
      const rows = await screenRows(page);
      expect(rows.missing, `rows ${rows.first}–${rows.last}`).toEqual([]);
      for (const code of rows.codes) if (!seen.includes(code)) seen.push(code);
      if (rows.last === total - 1) break;
      // The end of the loaded rows is on screen: the next rows load by themselves (infinite scroll), with no
      // tap (within 30 s: two test files share the machine's two cores); else the test says what the list
      // shows there.
      if (rows.last >= rows.loaded - 1) {
        const more = `document.querySelector('.quote-rows').getBoundingClientRect().height > ${rows.loaded * ROW}`;
        for (let wait = 0; wait < 150 && !(await page.evaluate<boolean>(more)); wait++)
          await page.waitForTimeout(200);
        expect(
          await page.evaluate<boolean>(more),
          `stuck at ${rows.loaded} rows: ${await page.locator('.quote-list').last().innerText()}`.slice(-300),
        ).toBe(true);
      }
    }
    await page.locator('.list-end').waitFor();
    expect(seen).toHaveLength(total);
    expect(await page.locator('.quote-rows > li').first().getAttribute('aria-setsize')).toBe(String(total));
    // Rows far behind the screen leave the page, a few at a time in idle time.
    await expect.poll(async () => (await screenRows(page)).inPage, { timeout: 20_000 }).toBeLessThan(100);

    // A jump back to the top shows the first rows at once.
    await page.evaluate('window.scrollTo(0, 0)');
    expect((await screenRows(page)).missing).toEqual([]);
    await page.locator('.quote-rows > li[data-index="0"]').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('asks for the next rows a screen ahead: the end just below the fold loads them with no more scrolling', async () => {
    const context = await newPhoneContext(e2e.browser);
    const page = await context.newPage();
    await page.goto(`${e2e.station.url}/trading-list?market=a&lang=en`);
    await page.locator('[data-testid^="quote-row-"]').first().waitFor();
    const loaded = async () => (await screenRows(page)).loaded;
    const first = await loaded();
    // The last row read at the bottom of the screen, "load more" just under the fold (or the tab bar).
    await page.evaluate(
      `window.scrollBy(0, document.querySelector('[data-testid="load-more"]').getBoundingClientRect().top - innerHeight - 40)`,
    );
    await expect.poll(loaded).toBeGreaterThan(first);
    await context.close();
  });

  it('keeps the row with the keyboard focus in the page while it is scrolled away', async () => {
    const context = await newPhoneContext(e2e.browser);
    const page = await context.newPage();
    await page.goto(`${e2e.station.url}/trading-list?market=a&lang=en`);
    const first = page.locator('.quote-rows > li[data-index="0"] a');
    await first.waitFor();
    await first.focus();
    // Far enough that the first rows would otherwise have left the page.
    for (let i = 0; i < 12; i++) {
      await page.evaluate('window.scrollBy(0, 800)');
      await page.waitForTimeout(100);
    }
    expect((await screenRows(page)).first).toBeGreaterThan(100);
    expect(await page.locator('.quote-rows > li[data-index="0"]').count()).toBe(1);
    expect(await page.evaluate('document.activeElement?.closest("li")?.dataset.index')).toBe('0');
    await context.close();
  });
});

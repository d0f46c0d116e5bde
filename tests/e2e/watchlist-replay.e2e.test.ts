/**
 * Watchlist edits offline replayed exactly as the user made them, in Chromium at 390×844 against the
 * production build: offline, a code removed and added again (from its detail's toggle), then the list
 * arranged; the screen shows the result at once and after a reload offline; back online the station's
 * list is the same list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchPhoneBrowser, offlineReady, openAs, startE2eStation, stationClient } from './harness';

let browser: Browser;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  browser = await launchPhoneBrowser();
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await browser?.close();
});

/** The codes of the watchlist's rows, top first (`prefix`: the plain rows or those of edit mode). */
function shownCodes(page: Page, prefix: 'watch-row-' | 'arrange-row-'): Promise<string[]> {
  return page
    .locator(`[data-testid^="${prefix}"]`)
    .evaluateAll((rows, p) => rows.map((row) => row.getAttribute('data-testid')!.slice(p.length)), prefix);
}

describe('watchlist edits offline, replayed exactly', () => {
  it('remove, add again, arrange offline: the same list offline, after a reload, and on the station online', async () => {
    const station = await startE2eStation();
    cleanups.push(() => station.close());
    const stationApi = stationClient(station.url);
    const session = await stationApi.registerUser('1390025');
    for (const code of ['600000', 'AAPL', '00700']) {
      await stationApi.call('POST', '/user/addOption.do', session.token, { code });
    }
    const stationList = async () =>
      (await stationApi.call<{ code: string }[]>('GET', '/user/option/list.do', session.token)).map(
        (q) => q.code,
      );
    expect(await stationList()).toEqual(['00700', 'AAPL', '600000']);

    const { page, errors, close } = await openAs(browser, session);
    cleanups.push(close);
    const context = page.context();
    await page.goto(`${station.url}/mylist`);
    await offlineReady(page);
    await page.reload();
    await page.getByTestId('watch-row-600000').waitFor();
    // The detail seen online, so its toggle works offline.
    await page.goto(`${station.url}/listdetail?code=AAPL`);
    await page.getByTestId('detail-price').waitFor();
    await page.goto(`${station.url}/mylist`);
    await page.getByTestId('watch-row-AAPL').waitFor();

    await context.setOffline(true);
    await page.getByTestId('offline-banner').waitFor();

    // Remove AAPL, then add it again from its detail: back on top, not vanished.
    await page.getByTestId('watch-row-AAPL').getByTestId('watch-remove').click();
    await page.getByTestId('watch-row-AAPL').waitFor({ state: 'detached' });
    // The removal is sent once its Undo is no longer offered.
    await page.getByTestId('watch-undo-bar').waitFor({ state: 'detached' });
    await page.goto(`${station.url}/listdetail?code=AAPL`);
    await page.locator('[data-testid="watch-toggle"][data-watched="false"]').waitFor();
    await page.getByTestId('watch-toggle').click();
    await page.locator('[data-testid="watch-toggle"][data-watched="true"]').waitFor();
    await page.goto(`${station.url}/mylist`);
    await page.getByTestId('watch-row-AAPL').waitFor();
    expect(await shownCodes(page, 'watch-row-')).toEqual(['AAPL', '00700', '600000']);

    // Arrange: 600000 to the top.
    await page.getByTestId('watch-edit').click();
    await page.getByTestId('arrange-row-600000').getByTestId('watch-top').click();
    await expect.poll(() => shownCodes(page, 'arrange-row-')).toEqual(['600000', 'AAPL', '00700']);
    await page.getByTestId('watch-edit').click();

    // Reloaded offline: the same list.
    await page.reload();
    await page.getByTestId('watch-row-AAPL').waitFor();
    expect(await shownCodes(page, 'watch-row-')).toEqual(['600000', 'AAPL', '00700']);
    expect(await stationList()).toEqual(['00700', 'AAPL', '600000']);

    // Online: the station ends with the list the screen showed, and the screen still shows it.
    await context.setOffline(false);
    await expect.poll(stationList, { timeout: 30_000 }).toEqual(['600000', 'AAPL', '00700']);
    await page.reload();
    await page.getByTestId('watch-row-AAPL').waitFor();
    expect(await shownCodes(page, 'watch-row-')).toEqual(['600000', 'AAPL', '00700']);
    expect(errors).toEqual([]);
  });
});

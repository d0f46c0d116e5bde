/**
 * Trading inside a competition in Chromium at 390×844, against a station with a pinned clock (always-open,
 * orders without KYC): a competition created and joined through the HTTP API; in the app the user follows
 * a "trade in this competition" link (?competition=) to the order form, buys an A-share there under the
 * competition's leverage, sees the position under the competition and not under "My account", the
 * competition's cash reduced and the own account's unchanged; a market the competition does not trade is
 * refused on the form with the station's message; and the competition's daily equity curve is drawn by the
 * chart worker beside its table.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import en from '../../locales/en';
import { FixedClock } from '../../server/market/clock';
import type { Competition, CompetitionAccount, EquityPoint } from '../../src/shared/api/competitions';
import type { Page as ListPage, Position, User } from '../../src/shared/api/types';
import { openAs, stationClient, type E2eStation } from './harness';
import { stationForFile } from './file-station';

/** Wednesday 2025-03-12 02:00 UTC. */
const T0 = Date.UTC(2025, 2, 12, 2, 0, 0);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const STARTING_CNY = 1_000_000;

let station: E2eStation;
const clock = new FixedClock(T0);
const e2e = stationForFile({}, { clock }, (started) => {
  station = started;
});

/** True when the canvas has pixels of more than a few colours: the worker drew on it. */
async function canvasHasDrawing(page: Page, testId: string): Promise<boolean> {
  return page.evaluate((id) => {
    const el = document.querySelector<HTMLCanvasElement>(`[data-testid="${id}"] canvas`);
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
  }, testId);
}

const axeSource = readFileSync(
  resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'),
  'utf8',
);

/** axe-core's serious and critical findings on the page (WCAG 2.2 AA), by rule id. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the devtools protocol: the station's CSP (script-src 'self') refuses an inline script.
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<unknown> } }).axe;
    const result = (await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
      resultTypes: ['violations'],
    })) as { violations: { id: string; impact: string | null }[] };
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id);
  });
}

/** The positions page's CNY buying power as shown (the summary's figure of the CNY accounts). */
const cnyAvailable = async (page: Page) =>
  Number(await page.getByTestId('summary-CNY').getByTestId('summary-available').getAttribute('data-value'));

describe('trading inside a competition in Chromium at 390×844', () => {
  it('buys in the competition, keeps it apart from the own account, refuses its other markets, draws its equity', async () => {
    const api = stationClient(station.url);
    const creator = await api.registerUser('1390091');
    const trader = await api.registerUser('1390092');
    const competition = await api.call<Competition>('POST', '/user/competition/create.do', creator.token, {
      name: 'A-share cup',
      startAt: T0 + HOUR,
      endAt: T0 + 5 * DAY,
      startingCash: STARTING_CNY,
      startingCashUsd: 100_000,
      markets: 'a,us',
      maxLeverage: 2,
      allowShort: 'false',
      visibility: 'public',
      requestId: crypto.randomUUID(),
    });
    await api.call('POST', '/user/competition/join.do', trader.token, {
      id: competition.id,
      nickname: 'Trader',
      requestId: crypto.randomUUID(),
    });
    clock.set(T0 + 2 * HOUR);
    const ownBefore = (await api.call<User>('GET', '/user/getUserInfo.do', trader.token)).accounts;
    // The own CNY accounts' buying power, as the summary adds it up (in fen).
    const ownCny =
      ownBefore
        .filter((a) => a.currency === 'CNY')
        .reduce((sum, a) => sum + Math.round(a.available * 100), 0) / 100;

    const { page, errors, close } = await openAs(e2e.browser, trader);
    // A competition detail's "trade in this competition" link: the order form opens in the competition.
    await page.goto(`${station.url}/buy?code=600036&competition=${competition.id}&lang=en`);
    const select = page.getByTestId('account-switcher-select');
    await page.getByTestId('order-form').waitFor();
    expect(await select.inputValue()).toBe(String(competition.id));
    expect(await page.getByTestId('competition-rules').textContent()).toContain('leverage up to 2×');
    expect(await page.getByTestId('paying-account').textContent()).toContain(
      en.compTrade.accountName.replace('{name}', 'A-share cup'),
    );
    // The competition's leverage: nothing above 2× offered (the A-share market offers up to 10×).
    expect(await page.getByTestId('leverage-2').count()).toBe(1);
    expect(await page.getByTestId('leverage-5').count()).toBe(0);
    await page.locator('input[name="lots"]').fill('10');
    await page.getByTestId('leverage-2').click();
    await page.getByTestId('buy-confirm').click();
    await page.getByTestId('order-confirm-sheet').getByTestId('order-submit').click();
    await page.waitForURL(/\/warehouse/);

    // The position is the competition's: listed under it, paid from its CNY account.
    const inside = await api.call<ListPage<Position>>('GET', '/user/position/list.do', trader.token, {
      state: 'open',
      competitionId: competition.id,
    });
    expect(inside.list).toHaveLength(1);
    const bought = inside.list[0]!;
    expect(bought).toMatchObject({ code: '600036', lots: 10, leverage: 2 });
    const rows = page.getByTestId('positions-open').getByTestId('position-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-position-id')).toBe(String(bought.id));
    const accounts = await api.call<CompetitionAccount[]>(
      'GET',
      '/user/competition/accounts.do',
      trader.token,
      { id: competition.id },
    );
    const cny = accounts.find((a) => a.currency === 'CNY')!;
    expect(cny.available).toBeLessThan(STARTING_CNY);
    await expect.poll(() => cnyAvailable(page)).toBe(cny.available);

    // "My account": no position there, its cash as before, and the station agrees.
    await select.selectOption('');
    await page.getByTestId('empty').waitFor();
    expect(await page.getByTestId('position-row').count()).toBe(0);
    await expect.poll(() => cnyAvailable(page)).toBe(ownCny);
    const own = await api.call<ListPage<Position>>('GET', '/user/position/list.do', trader.token, {
      state: 'open',
    });
    expect(own.total).toBe(0);
    expect((await api.call<User>('GET', '/user/getUserInfo.do', trader.token)).accounts).toEqual(ownBefore);

    // A market the competition does not trade (Hong Kong): refused on the form with the station's message.
    await select.selectOption(String(competition.id));
    await rows.first().waitFor();
    await page.goto(`${station.url}/buy?code=00700&lang=en`);
    const refused = page.getByTestId('competition-market-refused');
    await refused.waitFor();
    expect(await refused.textContent()).toContain(en.errors.COMPETITION_MARKET_NOT_ALLOWED);
    expect(await page.getByTestId('buy-confirm').isDisabled()).toBe(true);

    // Two days ranked: the equity curve has two points, drawn by the worker, and its table lists them.
    await station.app.competitionRanking.run();
    clock.set(T0 + 2 * HOUR + DAY);
    await station.app.competitionRanking.run();
    const points = await api.call<EquityPoint[]>('GET', '/user/competition/equity.do', trader.token, {
      id: competition.id,
    });
    expect(points).toHaveLength(2);
    await page.goto(`${station.url}/warehouse?lang=en`);
    const canvas = page.locator('[data-testid="equity-canvas"][data-points="2"]');
    await canvas.waitFor();
    await expect.poll(() => canvasHasDrawing(page, 'equity-canvas'), { timeout: 15_000 }).toBe(true);
    expect(await page.getByTestId('equity-summary').textContent()).toContain(
      `${points.length} days from ${points[0]!.day} to ${points[1]!.day}`,
    );
    await page.getByTestId('equity-table-toggle').click();
    expect(await seriousViolations(page)).toEqual([]);
    const tableRows = page.getByTestId('equity-table').getByTestId('equity-row');
    expect(await tableRows.count()).toBe(2);
    expect(Number(await tableRows.first().locator('td').first().getAttribute('data-value'))).toBe(
      points[1]!.totalAssets,
    );
    expect(errors).toEqual([]);
    await close();
  });
});

/**
 * Competitions in Chromium at 390×844 against one always-open station whose clock is pinned (a competition's
 * start must be in the future, then it runs): a user creates a private competition with the form and joins
 * it; a second user joins it with its code and a nickname; once it runs and one of them has traded (through
 * the HTTP API), both see the same leaderboard rows, each with their own row pinned, in English and in
 * zh-CN; then, offline, the list, the detail with its leaderboard and "my competitions" still read, "as of".
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import en from '../../locales/en';
import zhCN from '../../locales/zh-CN';
import type { Competition, Leaderboard } from '../../src/shared/api/competitions';
import { FixedClock } from '../../server/market/clock';
import { toLocalInput } from '../../src/app/routes/competitions/competition-form';
import { offlineReady, openAs, stationClient } from './harness';
import { stationForFile } from './file-station';

/** Wednesday 2025-03-12 02:00 UTC, pinned: the competitions start an hour later. */
const T0 = Date.UTC(2025, 2, 12, 2, 0, 0);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const clock = new FixedClock(T0);
const e2e = stationForFile({}, { clock });

/** The leaderboard's rows as the page shows them: one line of cells per row. */
async function boardRows(page: Page, testId = 'leaderboard-rows'): Promise<string[]> {
  const rows = page.locator(`[data-testid="${testId}"] tbody tr`);
  return (await rows.allInnerTexts()).map((row) => row.replace(/\s+/g, ' ').trim());
}

/** Opens a competition's detail in `lang` and waits for its leaderboard's rows. */
async function openBoard(page: Page, url: string, id: number, lang: string): Promise<void> {
  await page.goto(`${url}/competition?id=${id}&lang=${lang}`);
  await page.locator(`html[lang="${lang}"]`).waitFor({ state: 'attached' });
  await page.locator('[data-testid="leaderboard-rows"] tbody tr').nth(1).waitFor();
  await page.getByTestId('leaderboard-own').waitFor();
}

describe('competitions: create, join by code, one leaderboard for all, offline', () => {
  it('creates a private competition, a second user joins it by code, both see the same ranking in two languages, and it reads offline', async () => {
    const { station, browser } = e2e;
    const { url } = station;
    const client = stationClient(url);
    const creator = await client.registerUser('1390031');
    const entrant = await client.registerUser('1390032');
    // A public competition beside it, for the public list (a private one is never listed).
    const open = await client.call<Competition>('POST', '/user/competition/create.do', creator.token, {
      name: 'Open cup',
      startAt: T0 + HOUR,
      endAt: T0 + 3 * DAY,
      startingCash: 50_000,
      markets: 'a',
      maxLeverage: 1,
      allowShort: 'false',
      visibility: 'public',
      requestId: 'e2e-open-cup-1',
    });

    // The creator fills the form: a private competition in A-shares and US stocks, cash in CNY and USD.
    const first = await openAs(browser, creator);
    await first.page.goto(`${url}/competitionCreate?lang=en`);
    const form = first.page.getByTestId('competition-form');
    await form.locator('input[name="name"]').fill('Spring cup');
    await form.locator('textarea[name="description"]').fill('A-shares and US stocks, no shorts');
    await form.locator('input[name="startAt"]').fill(toLocalInput(T0 + HOUR));
    await form.locator('input[name="endAt"]').fill(toLocalInput(T0 + 3 * DAY));
    await form.locator('input[name="cashCny"]').fill('100000');
    await form.locator('input[name="cashUsd"]').fill('10000');
    await first.page.getByTestId('market-us').check();
    await form.locator('input[name="maxLeverage"]').fill('2');
    await first.page.getByTestId('visibility-private').check();
    await first.page.getByTestId('competition-submit').click();

    // Its detail: the rules as given, and the code only its creator sees.
    await first.page.getByTestId('competition-join-code').waitFor();
    const joinCode = (await first.page.getByTestId('competition-join-code').innerText()).trim();
    expect(joinCode).toMatch(/^[A-Z0-9]{8}$/);
    const id = Number(new URL(first.page.url()).searchParams.get('id'));
    expect(await first.page.getByTestId('competition-name').innerText()).toBe('Spring cup');
    expect(await first.page.getByTestId('rule-markets').innerText()).toBe(
      `${en.competitions.market.a} · ${en.competitions.market.us}`,
    );
    expect(await first.page.getByTestId('rule-visibility').innerText()).toBe(
      en.competitions.visibilityValue.private,
    );
    // A wrong code is refused under the field, in the reader's language, and joins nothing.
    await first.page.locator('[data-testid="join-form"] input[name="joinCode"]').fill('WRONG234');
    await first.page.getByTestId('join-submit').click();
    await first.page.getByTestId('error-joinCode').waitFor();
    expect(await first.page.getByTestId('error-joinCode').innerText()).toBe(
      en.errors.COMPETITION_BAD_JOIN_CODE,
    );
    // The creator enters it too, under a nickname.
    await first.page.locator('[data-testid="join-form"] input[name="joinCode"]').fill(joinCode);
    await first.page.locator('[data-testid="join-form"] input[name="nickname"]').fill('Ada');
    await first.page.getByTestId('join-submit').click();
    await first.page.getByTestId('joined-as').waitFor();
    expect(await first.page.getByTestId('joined-as').innerText()).toBe(
      en.competitions.joinedAs.replace('{nickname}', 'Ada'),
    );

    // The second user joins with the code from the list screen, the service worker in charge from here on.
    const second = await openAs(browser, entrant);
    await second.page.goto(`${url}/competitions?lang=en`);
    await offlineReady(second.page);
    await second.page
      .locator('[data-testid="join-by-code"] input[name="joinCode"]')
      .fill(joinCode.toLowerCase());
    await second.page.locator('[data-testid="join-by-code"] input[name="nickname"]').fill('Bo');
    await second.page.getByTestId('join-by-code-submit').click();
    await second.page.getByTestId('joined-as').waitFor();
    expect(new URL(second.page.url()).searchParams.get('id')).toBe(String(id));

    // It runs; Bo buys a US share inside it (fees: Bo's total falls below Ada's), and the ranking is taken.
    clock.set(T0 + 2 * HOUR);
    await client.call('POST', '/user/buy.do', entrant.token, {
      code: 'AAPL',
      lots: 1,
      leverage: 1,
      competitionId: id,
      requestId: 'e2e-competition-buy-1',
    });
    expect(await station.app.competitionRanking.run()).toBeGreaterThanOrEqual(1);
    const board = await client.call<Leaderboard>('GET', '/api/competition/leaderboard.do', null, { id });
    expect(board.list.map((row) => [row.rank, row.nickname])).toEqual([
      [1, 'Ada'],
      [2, 'Bo'],
    ]);
    expect(board.list[1]!.returnPct).toBeLessThan(0);

    for (const lang of ['en', 'zh-CN']) {
      await openBoard(first.page, url, id, lang);
      await openBoard(second.page, url, id, lang);
      const seenByAda = await boardRows(first.page);
      const seenByBo = await boardRows(second.page);
      expect(seenByAda, lang).toEqual(seenByBo);
      expect(
        seenByAda.map((row) => row.split(' ').slice(0, 2).join(' ')),
        lang,
      ).toEqual(['1 Ada', '2 Bo']);
      // Each sees their own row pinned: the same figures as their row on the board.
      expect(await boardRows(first.page, 'leaderboard-own')).toEqual([seenByAda[0]]);
      expect(await boardRows(second.page, 'leaderboard-own')).toEqual([seenByAda[1]]);
      const dict = lang === 'en' ? en : zhCN;
      expect(await first.page.locator('[data-testid="leaderboard-rows"] th').first().innerText()).toBe(
        dict.competitions.rank,
      );
      expect(await first.page.getByTestId('leaderboard-taken-at').innerText()).toMatch(
        new RegExp(
          `^${dict.competitions.takenAt.replace('{time}', '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d')}$`,
        ),
      );
    }

    // Offline: the public list, the detail with its leaderboard and the user's own list, from the device.
    await second.page.goto(`${url}/competitions?state=running&lang=en`);
    await second.page.getByTestId('competition-row').first().waitFor();
    const listOnline = await second.page.getByTestId('competition-row').allInnerTexts();
    expect(listOnline.some((row) => row.includes(open.name))).toBe(true);
    await second.page.goto(`${url}/myCompetitions?lang=en`);
    await second.page.getByTestId('my-competition-row').first().waitFor();
    const mineOnline = await second.page.getByTestId('my-competition-row').allInnerTexts();
    await openBoard(second.page, url, id, 'en');
    const boardOnline = await boardRows(second.page);

    await second.page.context().setOffline(true);
    await second.page.goto(`${url}/competitions?state=running`);
    await second.page.getByTestId('competition-row').first().waitFor();
    expect(await second.page.getByTestId('competition-row').allInnerTexts()).toEqual(listOnline);
    expect(await second.page.getByTestId('as-of').first().innerText()).toMatch(/^Offline · as of \d\d:\d\d$/);
    await second.page.goto(`${url}/competition?id=${id}`);
    await second.page.locator('[data-testid="leaderboard-rows"] tbody tr').nth(1).waitFor();
    expect(await second.page.getByTestId('competition-name').innerText()).toBe('Spring cup');
    expect(await boardRows(second.page)).toEqual(boardOnline);
    expect(await second.page.getByTestId('as-of').first().innerText()).toMatch(/^Offline · as of/);
    await second.page.goto(`${url}/myCompetitions`);
    await second.page.getByTestId('my-competition-row').first().waitFor();
    expect(await second.page.getByTestId('my-competition-row').allInnerTexts()).toEqual(mineOnline);
    await second.page.context().setOffline(false);

    expect(first.errors).toEqual([]);
    expect(second.errors).toEqual([]);
    await first.close();
    await second.close();
  });
});

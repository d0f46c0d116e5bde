/**
 * A newcomer's first hour, the products and the colours (Chromium at 390×844, one station in always-open
 * mode on a pinned clock: Sunday night in UTC, when no real exchange trades):
 * - a new-share issue is subscribing and the user subscribes to it; the VIP permission is requested from
 *   the app and granted by the station's reviewer REVIEW_DELAY_S later, then a VIP pick is bought; an ended
 *   pick shows a disabled, grey button, not the bright "Grab now";
 * - in English (green-up prices) "Verified" is the success green, not the red of a fall, and the unread
 *   badge is red, not the green of a rise;
 * - the watchlist has column headers, an exchange tag on every row, whole rows that open the detail, and a
 *   removal that Undo brings back before it is sent.
 */
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import en from '../../locales/en';
import { FixedClock } from '../../server/market/clock';
import { PALETTES } from '../../src/app/theme/palettes';
import type { VipPick } from '../../src/shared/api/dzvip';
import type { NewIssue } from '../../src/shared/api/newshares';
import type { Page as ListPage } from '../../src/shared/api/types';
import { openAs as openPhoneAs, stationClient, type E2eSession } from './harness';
import { stationForFile } from './file-station';

/** Sunday 2025-03-16 23:30 UTC. */
const T0 = Date.UTC(2025, 2, 16, 23, 30);
const clock = new FixedClock(T0);
let app: FastifyInstance;
let url: string;
let client: ReturnType<typeof stationClient>;

const e2e = stationForFile({ REVIEW_DELAY_S: '5' }, { clock }, (station) => {
  ({ app, url } = station);
  client = stationClient(url);
});
const openAs = (session: E2eSession) => openPhoneAs(e2e.browser, session);

/** `#rrggbb` as the browser computes it. */
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

describe('a newcomer’s first hour: products and colours, in Chromium at 390×844', () => {
  it('subscribes to a new share, requests the VIP permission and buys a pick; an ended pick is inactive', async () => {
    const session = await client.registerUser('1390026');
    const issues = await client.call<ListPage<NewIssue>>('GET', '/user/newStockList.do', session.token, {
      pageSize: 50,
    });
    const issue = issues.list.find((i) => i.phase === 'subscribing' && i.type === 'share')!;
    expect(issue).toBeDefined();
    const picks = await client.call<VipPick[]>('GET', '/api/stock/getVipList.do', null);
    expect(picks.length).toBeGreaterThan(1);
    expect(picks.every((p) => p.status === 'open')).toBe(true);
    // Another pick of the day has ended (its window closed before now).
    const ended = picks[1]!;
    await app.db
      .updateTable('vip_picks')
      .set({ closes_at: T0 - 60_000 })
      .where('code', '=', ended.code)
      .execute();

    const { page, errors, close } = await openAs(session);
    try {
      await page.goto(`${url}/newsharesDetail?code=${issue.code}`);
      await page.locator('input[name="lots"]').fill('1');
      await page.getByTestId('subscribe-submit').click();
      await page.getByTestId('subscription-state').waitFor();
      expect(await page.getByTestId('subscription-state').textContent()).toBe(en.newshares.state.subscribed);

      await page.goto(`${url}/vipdetail`);
      await page.getByTestId('vip-card').first().waitFor();
      const request = page.getByTestId('vip-request');
      await request.waitFor();
      expect(await page.getByTestId('vip-not-granted').textContent()).toContain(en.dzvip.vipNoPermission);
      await request.click();
      await page.getByTestId('vip-requested').waitFor();
      expect(await page.getByTestId('vip-requested').textContent()).toBe(en.dzvip.vipRequested);
      // The reviewer's delay passes on the station's clock; the screen sees the grant by itself.
      clock.advance(5_000);
      await page.getByTestId('vip-granted').waitFor();

      // The ended pick: a disabled, grey button saying so; the open one keeps "Grab now".
      const endedButton = page.getByTestId(`grab-${ended.code}`);
      expect(await endedButton.isDisabled()).toBe(true);
      expect(await endedButton.textContent()).toBe(en.dzvip.statusClosed);
      const [endedBg, openBg] = await Promise.all([
        endedButton.evaluate((el) => getComputedStyle(el).backgroundColor),
        page.getByTestId(`grab-${picks[0]!.code}`).evaluate((el) => getComputedStyle(el).backgroundColor),
      ]);
      expect(endedBg).toBe(rgb(PALETTES.red.surface2));
      expect(openBg).toBe(rgb(PALETTES.red.accent));

      await page.getByTestId(`grab-${picks[0]!.code}`).click();
      await page.getByTestId('purchase-form').waitFor();
      await page.getByTestId('purchase-submit').click();
      await page.getByTestId('purchase-done').waitFor();
      const bought = await client.call<ListPage<unknown>>('GET', '/user/vipQcList.do', session.token, {});
      expect(bought.total).toBe(1);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('keeps status colours apart from green-up prices: "Verified" green, the unread badge red', async () => {
    const session = await client.registerUser('1390027');
    await client.submitKyc(session.token, '王五');
    // The reviewer passes it and sends the user a message (unread).
    clock.advance(5_000);
    await app.kycReviewer.run();

    const { page, errors, close } = await openAs(session);
    try {
      await page.goto(`${url}/user`);
      const badge = page.getByTestId('unread-badge');
      await badge.waitFor();
      const kyc = page.getByTestId('kyc-badge');
      await kyc.filter({ hasText: en.user.kyc.passed }).waitFor();
      const colours = await page.evaluate(() => {
        const css = getComputedStyle(document.documentElement);
        return {
          up: css.getPropertyValue('--up').trim(),
          convention: document.documentElement.dataset.priceColors,
        };
      });
      // English reads green-up: a rise is green here.
      expect(colours.convention).toBe('green-up');
      expect(colours.up).toBe(PALETTES.red.down);
      expect(await kyc.evaluate((el) => getComputedStyle(el).color)).toBe(rgb(PALETTES.red.success));
      expect(await badge.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
        rgb(PALETTES.red.badge),
      );
      expect(PALETTES.red.badge).not.toBe(PALETTES.red.down);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('watchlist: headers, exchange tags, whole rows tappable, remove with Undo', async () => {
    const session = await client.registerUser('1390028');
    for (const code of ['600000', '000001', '00700', 'AAPL']) {
      await client.call('POST', '/user/addOption.do', session.token, { code });
    }
    const watched = async () =>
      (await client.call<{ code: string }[]>('GET', '/user/option/list.do', session.token)).map(
        (q) => q.code,
      );
    const { page, errors, close } = await openAs(session);
    try {
      await page.goto(`${url}/MyList`);
      await page.getByTestId('watch-row-AAPL').waitFor();
      expect(await page.locator('.watch-head span').allTextContents()).toEqual([
        en.market.name,
        en.market.price,
        en.market.changePct,
        '',
      ]);
      const tags = Object.fromEntries(
        await Promise.all(
          ['600000', '000001', '00700', 'AAPL'].map(
            async (code) =>
              [
                code,
                await page.getByTestId(`watch-row-${code}`).getByTestId('market-tag').textContent(),
              ] as const,
          ),
        ),
      );
      expect(tags).toEqual({
        '600000': en.market.tag.sh,
        '000001': en.market.tag.sz,
        '00700': en.market.tag.hk,
        AAPL: en.market.tag.us,
      });

      // A tap on the row's price, far from the name, opens the detail.
      const row = page.getByTestId('watch-row-00700');
      const [rowBox, priceBox] = await Promise.all([
        row.boundingBox(),
        row.locator('.quote-price').boundingBox(),
      ]);
      await page.mouse.click(priceBox!.x + priceBox!.width / 2, rowBox!.y + rowBox!.height / 2);
      await page.waitForURL(/00700/);
      await page.goBack();

      // Remove, then Undo: the row comes back and the station never lost it.
      await page.getByTestId('watch-row-00700').getByTestId('watch-remove').click();
      await page.getByTestId('watch-undo-bar').waitFor();
      expect(await page.getByTestId('watch-row-00700').count()).toBe(0);
      await page.getByTestId('watch-undo').click();
      await page.getByTestId('watch-row-00700').waitFor();
      expect(await watched()).toContain('00700');

      // Remove without Undo: once the bar goes, the removal is sent.
      const removal = page.waitForResponse((r) => r.url().includes('/user/delOption.do'));
      await page.getByTestId('watch-row-00700').getByTestId('watch-remove').click();
      await page.getByTestId('watch-undo-bar').waitFor({ state: 'detached' });
      await removal;
      expect(await watched()).not.toContain('00700');
      expect(await page.getByTestId('watch-row-00700').count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });

  it('search: hot searches before typing; results with headers, exchange tags and whole rows tappable', async () => {
    const session = await client.registerUser('1390029');
    const hot = await client.call<{ code: string; name: string }[]>('GET', '/api/stock/getTop.do', null, {
      market: 'a',
      by: 'turnover',
      limit: 8,
    });
    const { page, errors, close } = await openAs(session);
    try {
      await page.goto(`${url}/searchlist`);
      const hotSection = page.getByTestId('hot-searches');
      await hotSection.waitFor();
      expect(await hotSection.locator('h3').textContent()).toBe(en.trading.hotSearches);
      expect(
        await hotSection
          .locator('.chip')
          .evaluateAll((chips) => chips.map((c) => c.getAttribute('data-testid'))),
      ).toEqual(hot.map((q) => `hot-search-${q.code}`));
      await page.getByTestId(`hot-search-${hot[0]!.code}`).click();
      await page.waitForURL(new RegExp(`code=${hot[0]!.code}`));
      await page.goBack();

      await page.getByTestId('search-input').fill('700');
      await page.getByTestId('search-row-00700').waitFor();
      expect(await page.locator('[data-testid="search-results"] .quote-head span').allTextContents()).toEqual(
        [en.market.name, en.market.price, en.market.changePct],
      );
      const row = page.getByTestId('search-row-00700');
      expect(await row.getByTestId('market-tag').textContent()).toBe(en.market.tag.hk);
      // A tap on the change, far from the name, opens the detail.
      const [rowBox, changeBox] = await Promise.all([
        row.boundingBox(),
        row.locator('.num').last().boundingBox(),
      ]);
      await page.mouse.click(changeBox!.x + changeBox!.width / 2, rowBox!.y + rowBox!.height / 2);
      await page.waitForURL(/code=00700/);
      expect(errors).toEqual([]);
    } finally {
      await close();
    }
  });
});

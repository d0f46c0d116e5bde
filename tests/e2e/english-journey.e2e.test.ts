/**
 * A newcomer's first hour in English, end to end (Chromium at 390×844): a fresh user registers on a station
 * that follows the real exchange calendars, reads on the buy form that the market is closed and when it
 * opens, then the same station restarts in demo mode (CLOCK_MODE=always-open, ORDERS_NEED_KYC=false — the
 * README's "try it in two minutes") and the user buys a block trade, requests the VIP permission and buys a
 * pick once the reviewer grants it, subscribes to a new share, buys an index after the one-tap transfer from
 * the main account, and finds it all on the positions page with its summary in yuan.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en';
import { FixedClock } from '../../server/market/clock';
import type { BlockTradeOffer, VipPick } from '../../src/shared/api/dzvip';
import type { NewIssue } from '../../src/shared/api/newshares';
import type { Page as ListPage, Position } from '../../src/shared/api/types';
import { formatExchangeTime } from '../../src/shared/format';
import {
  freePort,
  launchPhoneBrowser,
  newPhoneContext,
  startE2eStation,
  stationClient,
  watchPageErrors,
  type E2eStation,
} from './harness';

const HOUR_MS = 3_600_000;
/** Sunday 2025-03-16 23:30 UTC: Monday 07:30 in Beijing, before the A-share open at 09:30. */
const T0 = Date.UTC(2025, 2, 16, 23, 30);
const clock = new FixedClock(T0);
const dataDir = mkdtempSync(join(tmpdir(), 'paperdesk-e2e-journey-'));
let port: number;
let station: E2eStation | undefined;
let browser: Browser;

beforeAll(async () => {
  port = await freePort();
  browser = await launchPhoneBrowser();
});

afterAll(async () => {
  await browser?.close();
  await station?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a newcomer’s first hour in English', () => {
  it('market closed with the next open → demo mode → block trade, VIP pick, new share, index buy → positions', async () => {
    // `npm start` as it is: the real calendars and the spec's KYC rule.
    station = await startE2eStation({ CLOCK_MODE: 'real' }, { port, dataDir, clock });
    const url = station.url;
    const context = await newPhoneContext(browser);
    const page = await context.newPage();
    const errors = watchPageErrors(page);

    await page.goto(`${url}/register?lang=en`);
    await page.locator('input[name="phone"]').fill('13900007788');
    await page.locator('input[name="password"]').fill('paper123');
    await page.locator('input[name="confirm"]').fill('paper123');
    await page.getByTestId('send-code').click();
    await expect.poll(() => page.locator('input[name="code"]').inputValue()).toMatch(/^\d{6}$/);
    await page.getByTestId('agree').check();
    await page.getByTestId('register-submit').click();
    await page.waitForURL('**/user');
    const token = await page.evaluate(
      () => (JSON.parse(localStorage.getItem('paperdesk.session') ?? '{}') as { token?: string }).token ?? '',
    );
    expect(token).not.toBe('');

    await page.goto(`${url}/buy?code=600519&lang=en`);
    const state = page.getByTestId('market-state');
    await page.locator('[data-testid="market-state"][data-state="closed"]').waitFor();
    expect(await state.textContent()).toContain(
      en.buy.marketClosed.replace(
        '{time}',
        formatExchangeTime(T0 + 2 * HOUR_MS, 'beijing', en.exchangeTime.zone.beijing),
      ),
    );

    // Demo mode: the same station, its data and the user's session, restarted with every market open.
    await station.close();
    station = await startE2eStation(
      { CLOCK_MODE: 'always-open', ORDERS_NEED_KYC: 'false', REVIEW_DELAY_S: '5' },
      { port, dataDir, clock },
    );
    const client = stationClient(url);
    await page.reload();
    await page.locator('[data-testid="market-state"][data-state="open"]').waitFor();

    // A block trade, at today's discount.
    const offers = await client.call<BlockTradeOffer[]>('GET', '/api/stock/getDzList.do', null);
    const offer = offers.find((o) => o.status === 'open')!;
    await page.goto(`${url}/sharerecordDz`);
    await page.getByTestId(`buy-${offer.code}`).click();
    const dz = page.getByTestId('block-trade-sheet');
    await dz.getByTestId('purchase-breakdown').waitFor();
    await dz.getByTestId('purchase-submit').click();
    await dz.getByTestId('purchase-done').waitFor();

    // The VIP permission, requested here and granted by the station's reviewer; then a pick.
    const picks = await client.call<VipPick[]>('GET', '/api/stock/getVipList.do', null);
    await page.goto(`${url}/vipdetail`);
    await page.getByTestId('vip-request').click();
    await page.getByTestId('vip-requested').waitFor();
    clock.advance(5_000);
    await page.getByTestId('vip-granted').waitFor();
    await page.getByTestId(`grab-${picks[0]!.code}`).click();
    await page.getByTestId('purchase-form').waitFor();
    await page.getByTestId('purchase-submit').click();
    await page.getByTestId('purchase-done').waitFor();

    // A new share in its subscription window.
    const issues = await client.call<ListPage<NewIssue>>('GET', '/user/newStockList.do', token, {
      pageSize: 50,
    });
    const issue = issues.list.find((i) => i.phase === 'subscribing' && i.type === 'share')!;
    await page.goto(`${url}/newsharesDetail?code=${issue.code}`);
    await page.locator('input[name="lots"]').fill('1');
    await page.getByTestId('subscribe-submit').click();
    await page.getByTestId('subscription-state').waitFor();
    expect(await page.getByTestId('subscription-state').textContent()).toBe(en.newshares.state.subscribed);

    // An index from the empty index account: the one-tap transfer from the main account, then the order.
    await page.goto(`${url}/indexBuy?code=SH000300&lang=en`);
    await page.getByTestId('leverage-5').click();
    await page.getByTestId('quick-transfer').click();
    const transfer = page.getByTestId('quick-transfer-sheet');
    await transfer.getByTestId('confirm-submit').click();
    await transfer.waitFor({ state: 'detached' });
    await page.locator('[data-testid="max-lots"]:not([data-value="0"])').waitFor();
    await page.getByTestId('buy-confirm').click();
    await page.getByTestId('order-confirm-sheet').getByTestId('order-submit').click();
    await page.waitForURL(/\/warehouse/);

    // The positions page: the block trade, the VIP pick and the index position.
    const open = await client.call<ListPage<Position>>('GET', '/user/position/list.do', token, {
      state: 'open',
      pageSize: 20,
    });
    expect(open.list.map((p) => p.code).sort()).toEqual([offer.code, picks[0]!.code, 'SH000300'].sort());
    const rows = page.getByTestId('positions-open').getByTestId('position-row');
    await rows.nth(2).waitFor();
    expect(await rows.count()).toBe(3);
    // All three are paid in yuan: the CNY card of the summary, with today's P&L in yuan.
    const cny = page.getByTestId('account-summary').getByTestId('summary-CNY');
    await cny.waitFor();
    expect(await cny.getByTestId('summary-today-currency').textContent()).toBe('CNY');
    for (let i = 0; i < 3; i++) {
      expect(await rows.nth(i).getByTestId('position-pnl-currency').textContent()).toBe('CNY');
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});

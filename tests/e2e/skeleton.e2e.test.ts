import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { LedgerEntry, Page as ApiPage, Position } from '../../src/shared/api/types';
import en from '../../locales/en';
import { newPhoneContext, watchPageErrors } from './harness';
import { stationForFile } from './file-station';

const e2e = stationForFile();

/** Reads a JSON call in the page, with the session cookie the station set at login. */
async function getJson<T>(page: Page, path: string): Promise<T> {
  const body = await page.evaluate(async (p) => {
    const res = await fetch(p, { credentials: 'include', headers: { 'Accept-Language': 'en' } });
    return (await res.json()) as { status: number; data: unknown };
  }, path);
  expect(body.status, JSON.stringify(body)).toBe(0);
  return body.data as T;
}

async function usBalance(page: Page): Promise<number> {
  const cell = page.getByTestId('account-us-balance');
  await cell.waitFor();
  const raw = await cell.getAttribute('data-value');
  expect(raw).not.toBeNull();
  return Number(raw);
}

describe('walking skeleton in Chromium at 390×844', () => {
  it('sends the root path to /home and shows the test-station notice', async () => {
    const context = await newPhoneContext(e2e.browser);
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${e2e.station.url}/?lang=en`);
    await page.waitForURL('**/home');
    await page.getByTestId('test-station-notice').waitFor();
    expect(await page.getByTestId('test-station-notice').innerText()).toMatch(/test station/i);
    await page.goto(`${e2e.station.url}/no/such/page`);
    await page.waitForURL('**/home');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('resets a forgotten password with the SMS code, refuses the old one and logs in with the new one', async () => {
    const phone = '13900005678';
    const post = async (path: string, body: Record<string, string>) =>
      (await (
        await fetch(`${e2e.station.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json()) as { status: number; data?: { demoCode?: string } };
    const sms = await post('/api/sms/sendRegSms.do', { phone });
    expect(
      (await post('/api/user/reg.do', { phone, password: 'paper123', code: sms.data?.demoCode ?? '' }))
        .status,
    ).toBe(0);

    const context = await newPhoneContext(e2e.browser);
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(`${e2e.station.url}/forget?lang=en`);
    // The code is asked for a valid number only.
    await page.getByTestId('send-code').click();
    expect(await page.getByTestId('error-phone').innerText()).toBe(en.validation.phoneEmpty);
    await page.locator('input[name="phone"]').fill(phone);
    await page.getByTestId('send-code').click();
    await page.getByTestId('demo-code').waitFor();
    await expect.poll(() => page.locator('input[name="code"]').inputValue()).toMatch(/^\d{6}$/);
    expect(await page.getByTestId('send-code').isDisabled()).toBe(true);
    await page.locator('input[name="password"]').fill('fresh456');
    await page.locator('input[name="confirm"]').fill('fresh457');
    await page.getByTestId('forget-submit').click();
    expect(await page.getByTestId('error-confirm').innerText()).toBe(en.validation.passwordsDiffer);
    await page.locator('input[name="confirm"]').fill('fresh456');
    await page.getByTestId('forget-submit').click();
    await page.waitForURL('**/login');
    // The URL changes before the login screen (a code chunk of its own) replaces the reset form, whose phone
    // and password fields have the same names: wait for the swap.
    await page.getByTestId('forget-submit').waitFor({ state: 'detached' });
    await page.getByTestId('login-submit').waitFor();

    await page.locator('input[name="phone"]').fill(phone);
    await page.locator('input[name="password"]').fill('paper123');
    await page.getByTestId('login-submit').click();
    await page.getByTestId('form-error').waitFor();
    await page.locator('input[name="password"]').fill('fresh456');
    await page.getByTestId('login-submit').click();
    await page.waitForURL('**/user');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('registers, logs in, buys and sells a US stock, and the ledger explains the balance to the cent', async () => {
    const context = await newPhoneContext(e2e.browser);
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    const phone = '13900001234';
    const password = 'paper123';

    // Register with the demo SMS code, which the test station shows and fills in.
    await page.goto(`${e2e.station.url}/register?lang=en`);
    await page.locator('input[name="phone"]').fill(phone);
    await page.locator('input[name="password"]').fill(password);
    await page.locator('input[name="confirm"]').fill(password);
    await page.getByTestId('send-code').click();
    await expect.poll(() => page.locator('input[name="code"]').inputValue()).toMatch(/^\d{6}$/);
    await page.getByTestId('agree').check();
    await page.getByTestId('register-submit').click();
    await page.waitForURL('**/user');

    // Log out, then log in again.
    await page.getByTestId('logout').click();
    await page.getByTestId('logout-sheet').getByTestId('confirm-submit').click();
    await page.waitForURL(/\/(home|login)$/);
    await page.goto(`${e2e.station.url}/login`);
    await page.locator('input[name="phone"]').fill(phone);
    await page.locator('input[name="password"]').fill(password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL('**/user');
    const before = await usBalance(page);
    expect(before).toBe(100_000);

    // Market list → US → a stock → buy 1 lot (1 share; US is T+0, so it can be sold today).
    await page.getByTestId('tab-trading-list').click();
    await page.waitForURL('**/trading-list');
    await page.getByTestId('market-tab-us').click();
    await page.getByTestId('quote-row-AAPL').click();
    await page.waitForURL(/\/listdetail\?code=AAPL/);
    await page.getByTestId('detail-price').waitFor();
    await page.getByTestId('buy-button').click();
    await page.waitForURL(/\/buy\?code=AAPL/);
    await page.locator('input[name="lots"]').fill('1');
    await page.getByTestId('buy-confirm').click();
    // The order sheet shows the full breakdown before the user confirms (DOMAIN.md "Fees"); placing it is a
    // second, explicit confirmation.
    await page.getByTestId('order-submit').click();
    await page.waitForURL('**/warehouse');

    const openRow = page.getByTestId('position-row').first();
    await openRow.waitFor();
    const positionId = Number(await openRow.getAttribute('data-position-id'));
    expect(positionId).toBeGreaterThan(0);

    // Sell it.
    await openRow.getByTestId('sell-button').click();
    await page.getByTestId('sell-confirm').click();
    await page.getByTestId('positions-tab-closed').click();
    await page.locator(`[data-testid="position-row"][data-position-id="${positionId}"]`).waitFor();

    // The closed position explains the money: price difference times shares, less every fee.
    const closed = await getJson<ApiPage<Position>>(
      page,
      '/user/position/list.do?state=closed&pageNum=1&pageSize=10',
    );
    const position = closed.list.find((p) => p.id === positionId);
    expect(position).toBeDefined();
    if (!position || position.closePrice === null) throw new Error('the position did not close');
    expect(position.shares).toBe(1);
    const expectedDelta =
      Math.round(
        ((position.closePrice - position.openPrice) * position.shares -
          position.buyFee -
          position.sellFee -
          position.stampDuty) *
          100,
      ) / 100;

    await page.getByTestId('tab-user').click();
    await page.waitForURL('**/user');
    // The screen first shows the user as last stored (here: read after the buy, before the sale), then the
    // fresh one: the balance settles on the round trip's result, to the cent.
    await expect
      .poll(async () => Math.round(((await usBalance(page)) - before) * 100), { timeout: 15_000 })
      .toBe(Math.round(expectedDelta * 100));
    const after = await usBalance(page);

    // The fund flow lists each entry, and the US entries after the opening balance add up to the change.
    await page.getByTestId('link-funding').click();
    await page.waitForURL('**/FundingDetails');
    const entries = page.locator('[data-testid="ledger-entry"][data-account="us"]');
    await expect.poll(() => entries.count()).toBeGreaterThanOrEqual(4);
    const amounts = await entries.evaluateAll((els) =>
      els.map((el) => Number(el.getAttribute('data-amount'))),
    );
    const ledger = await getJson<ApiPage<LedgerEntry>>(
      page,
      '/user/cash/list.do?account=us&pageNum=1&pageSize=50',
    );
    const trading = ledger.list.filter((e) => e.type !== 'opening_balance');
    expect(trading.map((e) => e.type).sort()).toEqual(
      expect.arrayContaining(['buy', 'buy_fee', 'sell', 'sell_fee']),
    );
    expect(amounts.length).toBe(ledger.list.length);
    const tradingSum = Math.round(trading.reduce((s, e) => s + e.amount, 0) * 100);
    expect(tradingSum).toBe(Math.round((after - before) * 100));
    expect(errors).toEqual([]);
    await context.close();
  });
});

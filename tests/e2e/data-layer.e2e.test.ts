/**
 * The data layer (TanStack Query, src/app/api/station-query.ts) in Chromium at 390×844: a change refreshes
 * every screen that shows what it changed without a reload (revoking a limit order: the frozen funds and
 * the available cash on /warehouse and /user; a buy: the position on /warehouse), and going offline and
 * back asks each query again once, not in a storm.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { FixedClock } from '../../server/market/clock';
import type { Account, Order, User } from '../../src/shared/api/types';
import { newPhoneContext, watchPageErrors } from './harness';
import { stationForFile } from './file-station';

/** Wednesday 2025-03-12 02:00 UTC, pinned: prices stand still, so a limit order below the price waits. */
const T0 = Date.UTC(2025, 2, 12, 2, 0, 0);
const CODE = 'AAPL';

let app: FastifyInstance;
let url: string;
const clock = new FixedClock(T0);
const e2e = stationForFile({}, { clock }, (station) => {
  ({ app, url } = station);
});

interface Session {
  token: string;
  user: { id: number };
}

async function api<T>(
  path: string,
  token: string | null,
  body?: Record<string, string | number>,
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const init: RequestInit = { headers };
  if (body) {
    init.method = 'POST';
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    init.body = new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString();
  }
  const envelope = (await (await fetch(`${url}${path}`, init)).json()) as {
    status: number;
    data: T;
    msg?: string;
  };
  if (envelope.status !== 0) throw new Error(`${path}: ${envelope.msg ?? envelope.status}`);
  return envelope.data;
}

let phoneSerial = 0;
async function registerUser(): Promise<Session> {
  const phone = `1390077${String(++phoneSerial).padStart(4, '0')}`;
  const sms = await api<{ demoCode: string }>('/api/sms/sendRegSms.do', null, { phone });
  return api<Session>('/api/user/reg.do', null, { phone, password: 'pass1234', code: sms.demoCode });
}

async function openAs(session: Session) {
  const context = await newPhoneContext(e2e.browser);
  await context.addInitScript((s) => {
    localStorage.setItem('paperdesk.session', JSON.stringify(s));
    localStorage.setItem('paperdesk.lang', JSON.stringify('en'));
  }, session);
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  return { context, page, errors, close: () => context.close() };
}

async function usAccount(session: Session): Promise<Account> {
  const user = await api<User>('/user/getUserInfo.do', session.token);
  return user.accounts.find((account) => account.type === 'us')!;
}

/** Marks the document: the mark survives client-side navigation and is gone after any reload. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { dataLayerMark: number }).dataLayerMark = 1;
  });
}
async function stillSameDocument(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { dataLayerMark?: number }).dataLayerMark === 1);
}

async function waitForValue(page: Page, testId: string, value: number): Promise<void> {
  await page.waitForFunction(
    ([id, expected]) =>
      document.querySelector(`[data-testid="${id}"]`)?.getAttribute('data-value') === expected,
    [testId, String(value)] as const,
  );
}

describe('the data layer in Chromium at 390×844', () => {
  it('revoking a limit order updates the frozen funds and available cash on /warehouse and /user, without a reload', async () => {
    const session = await registerUser();
    const price = app.market.quote(app.market.get(CODE), T0).price;
    const trigger = Math.round(price * 0.9 * 100) / 100;
    await api<Order>('/user/addOrder.do', session.token, {
      code: CODE,
      lots: 2,
      leverage: 1,
      triggerPrice: trigger,
      requestId: randomUUID(),
    });
    const frozen = await usAccount(session);
    expect(frozen.available).toBeLessThan(frozen.balance);

    const { page, errors, close } = await openAs(session);
    await page.goto(`${url}/user?lang=en`);
    await waitForValue(page, 'account-us-available', frozen.available);
    await markDocument(page);

    // To the orders through the tab bar and the tab: client-side, the user query already in the cache.
    await page.getByTestId('tab-warehouse').click();
    await page.getByTestId('positions-tab-orders').click();
    const funds = page.getByTestId('order-funds-us');
    await funds.waitFor();
    expect(Number(await funds.getByTestId('order-funds-frozen').getAttribute('data-value'))).toBeCloseTo(
      frozen.balance - frozen.available,
      2,
    );
    expect(Number(await funds.getByTestId('order-funds-available').getAttribute('data-value'))).toBe(
      frozen.available,
    );

    await page.getByTestId('revoke-button').click();
    await page.getByTestId('revoke-confirm').click();
    await page.getByTestId('revoke-sheet').waitFor({ state: 'detached' });
    const released = await usAccount(session);
    expect(released.available).toBe(released.balance);
    // The same screen, not polled for the accounts: the revocation's invalidation refreshes them.
    await page.waitForFunction(
      () =>
        document
          .querySelector('[data-testid="order-funds-us"] [data-testid="order-funds-frozen"]')
          ?.getAttribute('data-value') === '0',
    );
    expect(Number(await funds.getByTestId('order-funds-available').getAttribute('data-value'))).toBe(
      released.available,
    );

    await page.getByTestId('tab-user').click();
    await waitForValue(page, 'account-us-available', released.available);
    expect(await stillSameDocument(page)).toBe(true);
    expect(errors).toEqual([]);
    await close();
  });

  it('a buy shows the new position on /warehouse at once', async () => {
    const session = await registerUser();
    const { page, errors, close } = await openAs(session);
    // The order screen reads the open positions (for the account-wide liquidation price): the same query
    // as /warehouse's list, cached empty here.
    await page.goto(`${url}/buy?code=${CODE}&lang=en`);
    await page.getByTestId('buy-price').waitFor();
    await markDocument(page);
    await page.locator('input[name="lots"]').fill('1');
    await page.getByTestId('buy-confirm').click();
    const before = e2e.station.requests.length;
    await page.getByTestId('order-confirm-sheet').getByTestId('order-submit').click();
    await page.waitForURL(/\/warehouse/);
    // Sooner than the list's own poll (PRICE_REFRESH_MS, 5 s): the buy made the cached list stale.
    await page.getByTestId('position-row').first().waitFor({ timeout: 4000 });
    expect(await page.getByTestId('position-row').count()).toBe(1);
    const asked = e2e.station.requests.slice(before);
    expect(asked.indexOf('POST /user/buy.do')).toBeGreaterThanOrEqual(0);
    expect(asked.slice(asked.indexOf('POST /user/buy.do')).includes('GET /user/position/list.do')).toBe(true);
    expect(await stillSameDocument(page)).toBe(true);
    expect(errors).toEqual([]);
    await close();
  });

  it('going offline and back asks each query once, not in a storm', async () => {
    const session = await registerUser();
    await api('/user/buy.do', session.token, {
      code: CODE,
      lots: 1,
      leverage: 1,
      direction: 'long',
      requestId: randomUUID(),
    });
    const { context, page, errors, close } = await openAs(session);
    await page.goto(`${url}/warehouse?lang=en`);
    await page.getByTestId('position-row').first().waitFor();
    await context.setOffline(true);
    await page.waitForTimeout(1500);
    const before = e2e.station.requests.length;
    await context.setOffline(false);
    // Shorter than one poll period (5 s): what arrives here is the reconnection's own refetching.
    await page.waitForTimeout(2500);
    const asked = e2e.station.requests.slice(before).filter((r) => r.startsWith('GET '));
    const perPath = new Map<string, number>();
    for (const request of asked) perPath.set(request, (perPath.get(request) ?? 0) + 1);
    // The queries on screen (open positions, the user's accounts) each asked again once back online…
    expect(perPath.get('GET /user/position/list.do') ?? 0).toBeGreaterThanOrEqual(1);
    // …and no query asked more than twice (the reconnection's refetch, perhaps one poll beside it).
    for (const [path, count] of perPath) expect({ path, count }).toEqual({ path, count: Math.min(count, 2) });
    expect(asked.length).toBeLessThanOrEqual(8);
    expect(errors).toEqual([]);
    await close();
  });
});

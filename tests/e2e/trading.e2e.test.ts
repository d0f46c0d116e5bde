/**
 * The trading screens in Chromium at 390×844 against a station with a pinned clock (the engine steps only
 * when the test says so): search → detail → buy with leverage and a stop loss (the breakdown before
 * confirming) → the position with its liquidation price → the stop triggers on the pinned market → closed
 * with its reason; closing part and then the rest of a position; a limit order placed, then revoked; and
 * refusals that show their message and change nothing.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import en from '../../locales/en';
import { FixedClock } from '../../server/market/clock';
import type { Order, Page as ListPage, Position } from '../../src/shared/api/types';
import { exchangeZoneOf, formatExchangeTime } from '../../src/shared/format';
import { newPhoneContext, watchPageErrors } from './harness';
import { stationForFile } from './file-station';

/** Wednesday 2025-03-12 02:00 UTC; the station runs always-open, so US stocks (T+0) trade now. */
const T0 = Date.UTC(2025, 2, 12, 2, 0, 0);
const MINUTE = 60_000;
const DAY = 86_400_000;
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
  let target = `${url}${path}`;
  const init: RequestInit = { headers };
  if (body && path.includes('list.do')) {
    target += `?${new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)]))}`;
  } else if (body) {
    init.method = 'POST';
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    init.body = new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString();
  }
  const envelope = (await (await fetch(target, init)).json()) as { status: number; data: T; msg?: string };
  if (envelope.status !== 0) throw new Error(`${path}: ${envelope.msg ?? envelope.status}`);
  return envelope.data;
}

let phoneSerial = 0;
async function registerUser(): Promise<Session> {
  const phone = `1380013${String(++phoneSerial).padStart(4, '0')}`;
  const sms = await api<{ demoCode: string }>('/api/sms/sendRegSms.do', null, { phone });
  return api<Session>('/api/user/reg.do', null, { phone, password: 'pass1234', code: sms.demoCode });
}

async function openAs(
  session: Session,
): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const context = await newPhoneContext(e2e.browser);
  await context.addInitScript((s) => {
    localStorage.setItem('paperdesk.session', JSON.stringify(s));
    localStorage.setItem('paperdesk.lang', JSON.stringify('en'));
  }, session);
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  return { page, errors, close: () => context.close() };
}

const priceAt = (code: string, t: number) => app.market.quote(app.market.get(code), t).price;

async function positions(session: Session, state: 'open' | 'closed'): Promise<Position[]> {
  return (await api<ListPage<Position>>('/user/position/list.do', session.token, { state, pageSize: 100 }))
    .list;
}

describe('trading screens in Chromium at 390×844', () => {
  it('search → detail → buy with leverage and a stop loss → liquidation price → the stop closes it', async () => {
    const session = await registerUser();
    const { page, errors, close } = await openAs(session);
    // The first US stock (T+0) that trades 0.3% below now within a day, and that minute: the stop loss.
    const now = clock.now();
    let plan: { code: string; crossing: number } | null = null;
    for (const code of ['AAPL', 'MSFT', 'NVDA', 'TSLA', 'AMZN', 'META', 'GOOGL', 'AMD']) {
      const p0 = priceAt(code, now);
      for (let t = now + MINUTE; t <= now + DAY && !plan; t += MINUTE) {
        if (priceAt(code, t) < p0 * 0.997) plan = { code, crossing: t };
      }
      if (plan) break;
    }
    expect(plan, 'a US stock falls 0.3% within a day on the pinned market').not.toBeNull();
    const { code, crossing } = plan!;
    const stopLoss = priceAt(code, crossing);
    // About half the US$100,000 as margin at 5×: the account then borrows more than its free cash covers,
    // so its R reaches the liquidation line at a positive price (DOMAIN.md "Leverage, margin and liquidation").
    const lots = Math.floor(250_000 / priceAt(code, now));

    await page.goto(`${url}/searchlist?lang=en`);
    await page.getByTestId('search-input').fill(code);
    await page.getByTestId(`search-row-${code}`).click();
    await page.waitForURL(new RegExp(`/listdetail\\?code=${code}`));
    await page.getByTestId('order-book').waitFor();
    await page.getByTestId('buy-button').click();
    await page.waitForURL(new RegExp(`/buy\\?code=${code}`));

    await page.locator('input[name="lots"]').fill(String(lots));
    await page.getByTestId('leverage-5').click();
    await page.locator('input[name="stopLoss"]').fill(String(stopLoss));
    await page.getByTestId('buy-confirm').click();
    const sheet = page.getByTestId('order-confirm-sheet');
    await sheet.waitFor();
    // The full breakdown before confirming: margin, every fee, borrowed, liquidation price, what remains.
    for (const id of [
      'bd-margin',
      'bd-fee-commission',
      'bd-fees',
      'bd-borrowed',
      'bd-liquidation',
      'bd-available-after',
    ]) {
      expect((await sheet.getByTestId(id).textContent())?.trim(), id).toMatch(/\d/);
    }
    const shownMargin = await sheet.getByTestId('bd-margin').textContent();
    const shownLiquidation = await sheet.getByTestId('bd-liquidation').textContent();
    expect(await sheet.getByTestId('bd-leverage').textContent()).toContain('5');
    await sheet.getByTestId('order-submit').click();
    await page.waitForURL(/\/warehouse/);

    const row = page.getByTestId('position-row').first();
    await row.waitFor();
    const [position] = await positions(session, 'open');
    expect(position).toMatchObject({ code, lots, leverage: 5, stopLoss });
    // What the sheet showed is what the station charged.
    expect(shownMargin).toContain(position!.margin.toLocaleString('en-US', { minimumFractionDigits: 2 }));
    expect(position!.liquidationPrice).not.toBeNull();
    const listedLiquidation = (await row.getByTestId('position-liquidation').textContent())!.trim();
    expect(listedLiquidation).toBe(position!.liquidationPrice!.toFixed(2));
    expect(shownLiquidation!.trim()).toBe(listedLiquidation);

    // The detail shows every field of the position.
    await row.getByTestId('position-detail').click();
    await page.getByTestId('position-detail-screen').waitFor();
    expect(await page.getByTestId('f-liquidation').textContent()).toBe(listedLiquidation);
    expect(await page.getByTestId('f-stop-loss').textContent()).toBe(stopLoss.toFixed(2));

    // The pinned market moves past the stop; the engine's step closes the position at the crossing minute.
    clock.set(crossing + MINUTE);
    await app.engine.step();
    await page.goto(`${url}/warehouse?tab=closed&lang=en`);
    const closed = page.getByTestId('positions-closed').getByTestId('position-row').first();
    await closed.waitFor();
    expect(await closed.getByTestId('close-reason').textContent()).toBe(en.positions.closeReason.stop_loss);
    expect((await positions(session, 'closed'))[0]).toMatchObject({
      closeReason: 'stop_loss',
      closedAt: crossing,
    });
    expect(errors).toEqual([]);
    await close();
  });

  it('closes part of a position, then the rest; the closed list shows it closed by the user', async () => {
    const session = await registerUser();
    const bought = await api<Position>('/user/buy.do', session.token, {
      code: CODE,
      lots: 10,
      leverage: 2,
      requestId: crypto.randomUUID(),
    });
    const { page, errors, close } = await openAs(session);
    await page.goto(`${url}/sellStocks?id=${bought.id}&lang=en`);
    await page.locator('input[name="lots"]').fill('4');
    await page.getByTestId('sell-confirm').click();
    await page.waitForURL(/\/warehouse/);
    expect((await positions(session, 'open'))[0]).toMatchObject({ id: bought.id, lots: 6 });

    await page.goto(`${url}/warehouse?lang=en`);
    await page.getByTestId('sell-button').first().click();
    await page.waitForURL(/\/sellStocks/);
    expect(await page.locator('input[name="lots"]').inputValue()).toBe('6');
    await page.getByTestId('sell-confirm').click();
    await page.waitForURL(/tab=closed/);
    const rows = page.getByTestId('positions-closed').getByTestId('position-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(2);
    expect(await rows.first().getByTestId('close-reason').textContent()).toBe(en.positions.closeReason.user);
    expect(await positions(session, 'open')).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  it('places a limit order with a trigger price, then revokes it', async () => {
    const session = await registerUser();
    const { page, errors, close } = await openAs(session);
    await page.goto(`${url}/buy?code=${CODE}&lang=en`);
    const price = Number(await page.getByTestId('buy-price').getAttribute('data-value'));
    const trigger = (Math.round(price * 0.95 * 100) / 100).toFixed(2);
    await page.getByTestId('order-type-limit').click();
    await page.locator('input[name="triggerPrice"]').fill(trigger);
    await page.locator('input[name="lots"]').fill('3');
    await page.getByTestId('buy-confirm').click();
    const sheet = page.getByTestId('order-confirm-sheet');
    expect(await sheet.getByTestId('bd-type').textContent()).toContain(trigger);
    await sheet.getByTestId('order-submit').click();
    await page.waitForURL(/tab=orders/);
    const row = page.getByTestId('order-row').first();
    await row.waitFor();
    expect(await row.getByTestId('order-status').textContent()).toBe(en.trading.orderStatus.pending);
    // A day order: valid until its session's close, shown in the exchange's time zone and saying so.
    const [pending] = (await api<ListPage<Order>>('/user/order/list.do', session.token, { pageSize: 10 }))
      .list;
    const zone = exchangeZoneOf(pending!.market);
    expect(await row.getByTestId('order-expires-at').textContent()).toBe(
      formatExchangeTime(pending!.expiresAt!, zone, en.exchangeTime.zone[zone]),
    );
    await row.getByTestId('revoke-button').click();
    await page.getByTestId('revoke-confirm').click();
    await page.getByTestId('order-status').filter({ hasText: en.trading.orderStatus.cancelled }).waitFor();
    const orders = await api<ListPage<Order>>('/user/order/list.do', session.token, { pageSize: 10 });
    expect(orders.list).toHaveLength(1);
    expect(orders.list[0]).toMatchObject({ status: 'cancelled', triggerPrice: Number(trigger), lots: 3 });
    expect(errors).toEqual([]);
    await close();
  });

  it('refuses empty and too many lots on the form, and insufficient funds from the station; nothing changes', async () => {
    const session = await registerUser();
    const { page, errors, close } = await openAs(session);
    await page.goto(`${url}/buy?code=${CODE}&lang=en`);
    const lots = page.locator('input[name="lots"]');
    await lots.fill('');
    await page.getByTestId('buy-confirm').click();
    expect(await page.getByTestId('error-lots').textContent()).toBe(en.validation.lotsEmpty);
    await lots.fill('10001');
    expect(await page.getByTestId('error-lots').textContent()).toBe(
      en.validation.lotsAboveMaxOf.replace('{max}', '10000'),
    );
    expect(await page.getByTestId('order-confirm-sheet').count()).toBe(0);

    // The index account starts empty: an index order is refused by the station, with its message.
    await page.goto(`${url}/indexBuy?code=SH000300&lang=en`);
    await page.getByTestId('direction-short').click();
    await page.getByTestId('buy-confirm').click();
    const sheet = page.getByTestId('order-confirm-sheet');
    await sheet.getByTestId('bd-insufficient').waitFor();
    await sheet.getByTestId('order-submit').click();
    expect(await sheet.getByTestId('buy-error').textContent()).toBe(en.errors.INSUFFICIENT_FUNDS);
    expect(await positions(session, 'open')).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  it('opens every trading and market screen with its content: no error', async () => {
    const session = await registerUser();
    const held = await api<Position>('/user/buy.do', session.token, {
      code: CODE,
      lots: 2,
      leverage: 1,
      requestId: crypto.randomUUID(),
    });
    await api('/user/addOption.do', session.token, { code: CODE });
    const { page, errors, close } = await openAs(session);
    const screens: [string, string][] = [
      ['/trading-list?market=a&sort=-changePct', 'quote-list-a'],
      ['/trading-list?market=index', 'quote-list-index'],
      ['/trading-list?market=futures', 'quote-list-futures'],
      ['/hk-list', 'quote-list-hk'],
      ['/indexlist', 'quote-list-index'],
      ['/listdetail?code=600000', 'order-book'],
      ['/listdetail2?code=SH000300&market=index', 'short-button'],
      ['/listdetail2?code=IF0&market=futures', 'short-button'],
      ['/indexBuy?code=SH000300', 'order-form'],
      ['/futuresBuy?code=IF0', 'order-form'],
      ['/twoBuy?code=600000', 'order-form'],
      ['/TradingBuy?code=600000', 'order-form'],
      ['/buyStocks?code=00700', 'order-form'],
      ['/warehouse', 'positions-open'],
      ['/holdorderlist', 'positions-open'],
      ['/holdorderlist2', 'empty'],
      ['/sellorderlist', 'empty'],
      ['/sellorderlist2', 'empty'],
      [`/detail?id=${held.id}`, 'position-detail-screen'],
      ['/MyList', `watch-row-${CODE}`],
      ['/mylist', `watch-row-${CODE}`],
      ['/DragonTiger', 'move-counts'],
      ['/topTen', 'board-top'],
      ['/daylimit', 'move-counts'],
      ['/stopRecovery', 'move-counts'],
      ['/searchStock', 'search-input'],
      ['/indexsearchlist', 'search-input'],
      ['/searchmylist', 'search-input'],
    ];
    for (const [path, testId] of screens) {
      await page.goto(`${url}${path}${path.includes('?') ? '&' : '?'}lang=en`);
      await page.getByTestId(testId).first().waitFor({ timeout: 15_000 });
      expect(await page.getByTestId('error').count(), path).toBe(0);
    }
    // An index cannot be added to the watchlist (spec §5): its detail offers no button that would only refuse.
    await page.goto(`${url}/listdetail2?code=SH000300&market=index&lang=en`);
    await page.getByTestId('detail-price').waitFor();
    expect(await page.getByTestId('watch-toggle').count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });
  it('arranges the watchlist: a move to the top and a move down are saved on the station', async () => {
    const session = await registerUser();
    for (const code of ['600000', 'AAPL', '00700']) await api('/user/addOption.do', session.token, { code });
    const { page, errors, close } = await openAs(session);
    const shownOrder = () =>
      page
        .locator('[data-testid^="arrange-row-"]')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid')!.slice('arrange-row-'.length)));
    const stationOrder = async () =>
      (await api<{ code: string }[]>('/user/option/list.do', session.token, {})).map((q) => q.code);
    await page.goto(`${url}/MyList?lang=en`);
    await page.getByTestId('watch-row-00700').waitFor();
    await page.getByTestId('watch-edit').click();
    expect(await shownOrder()).toEqual(['00700', 'AAPL', '600000']);
    await page.getByTestId('arrange-row-600000').getByTestId('watch-top').click();
    await expect.poll(stationOrder).toEqual(['600000', '00700', 'AAPL']);
    await page.getByTestId('arrange-row-600000').getByTestId('watch-down').click();
    await expect.poll(stationOrder).toEqual(['00700', '600000', 'AAPL']);
    await expect.poll(shownOrder).toEqual(['00700', '600000', 'AAPL']);
    // Done: the rows show prices again, in the arranged order, also after a reload.
    await page.getByTestId('watch-edit').click();
    await page.reload();
    await page.getByTestId('watch-row-AAPL').waitFor();
    expect(
      await page
        .locator('[data-testid^="watch-row-"]')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid'))),
    ).toEqual(['watch-row-00700', 'watch-row-600000', 'watch-row-AAPL']);
    expect(errors).toEqual([]);
    await close();
  });
});

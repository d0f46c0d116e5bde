/**
 * A newcomer's first hour on the trade and sign-in side, in Chromium at 390×844 against one always-open
 * station with a pinned clock (prices hold still, so every figure is exact): the index and futures lists in
 * columns under a header; "forgot password" on the login; an index order from an empty index account through
 * the one-tap transfer, counted in contracts, on a detail titled for an index; a confirmation with the exact
 * amount before money moves (transfer, fund purchase, exchange, logout); and the messages a user reads.
 */
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import en from '../../locales/en';
import { FixedClock } from '../../server/market/clock';
import type { FundHoldings } from '../../src/shared/api/funds';
import type { ExchangeRecord, Order, Position, SpreadRate, User } from '../../src/shared/api/types';
import type { Page as ListPage } from '../../src/shared/api/types';
import { exchangedAmount } from '../../src/shared/flash-exchange';
import { toMajor, toMinor } from '../../src/shared/money';
import { openAs, stationClient, type E2eSession } from './harness';
import { stationForFile } from './file-station';

/** Wednesday 2025-03-12 10:00 in Shanghai: a weekday inside the deposit and withdrawal hours. */
const T0 = Date.UTC(2025, 2, 12, 2, 0, 0);
const clock = new FixedClock(T0);
let app: FastifyInstance;
let url: string;
const e2e = stationForFile({ REVIEW_DELAY_S: '0' }, { clock }, (station) => {
  ({ app, url } = station);
});

let client: ReturnType<typeof stationClient> | undefined;
/** One client for the file: its phone serial makes every user new. */
const station = () => (client ??= stationClient(url));
const newUser = () => station().registerUser('1370266');
const accountsOf = async (session: E2eSession) =>
  (await station().call<User>('GET', '/user/getUserInfo.do', session.token)).accounts;
const availableIn = async (session: E2eSession, type: string) =>
  (await accountsOf(session)).find((a) => a.type === type)!.available;
const money = (value: number) =>
  value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The boxes of a quote row's name, price and change: one line of three columns, or a stack. */
async function rowColumns(row: Locator) {
  const box = async (selector: string) => (await row.locator(selector).first().boundingBox())!;
  return {
    name: await box('.quote-name'),
    price: await box('.quote-price'),
    pill: await box('.change-pill'),
  };
}

async function expectColumns(page: Page, listTestId: string) {
  const list = page.getByTestId(listTestId);
  await list.locator('[data-testid^="quote-row-"]').first().waitFor();
  // The header names the three columns.
  expect(await list.getByTestId('quote-head').locator('span').allTextContents()).toEqual([
    en.market.name,
    en.market.price,
    en.market.changePct,
  ]);
  const { name, price, pill } = await rowColumns(list.locator('[data-testid^="quote-row-"]').first());
  // Price and change sit right of the name on the same line, not stacked under it.
  expect(price.x).toBeGreaterThan(name.x + name.width - 1);
  expect(pill.x).toBeGreaterThan(price.x);
  expect(Math.abs(price.y + price.height / 2 - (pill.y + pill.height / 2))).toBeLessThan(4);
  expect(price.y).toBeLessThan(name.y + name.height);
}

describe('a newcomer’s first hour: trade and sign-in side', () => {
  it('lists indexes and futures in columns under a header, and the login offers "forgot password"', async () => {
    const { page, errors, close } = await openAs(e2e.browser, await newUser());
    await page.goto(`${url}/trading-list?market=index&lang=en`);
    await expectColumns(page, 'quote-list-index');
    await page.getByTestId('market-tab-futures').click();
    await expectColumns(page, 'quote-list-futures');
    await page.goto(`${url}/indexlist?lang=en`);
    await expectColumns(page, 'quote-list-index');
    await close();

    // Logged out: the login page leads to /forget.
    const context = await e2e.browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
    const login = await context.newPage();
    await login.goto(`${url}/login?lang=en`);
    const forgot = login.getByTestId('link-forget');
    expect(await forgot.textContent()).toBe(en.auth.forgotPassword);
    await forgot.click();
    await login.waitForURL(/\/forget/);
    await login.getByTestId('forget-submit').waitFor();
    await context.close();
    expect(errors).toEqual([]);
  });

  it('an index order from an empty index account: max you can buy, the one-tap transfer, contracts, the order', async () => {
    const session = await newUser();
    const { page, errors, close } = await openAs(e2e.browser, session);
    // The index detail is titled for an index and offers no watchlist button the station would refuse.
    await page.goto(`${url}/listdetail2?code=SH000300&market=index&lang=en`);
    await page.getByTestId('detail-price').waitFor();
    expect(await page.title()).toContain(en.titles.indexDetail);
    expect(await page.getByTestId('watch-toggle').count()).toBe(0);

    await page.goto(`${url}/indexBuy?code=SH000300&lang=en`);
    const state = page.getByTestId('market-state');
    await state.waitFor();
    expect(await state.getAttribute('data-state')).toBe('open');
    expect(await state.textContent()).toContain(en.buy.marketOpen);
    // This station lets paper trading start before KYC (ORDERS_NEED_KYC=false): the form asks for none.
    expect(await page.getByTestId('kyc-state').count()).toBe(0);
    // Which account pays, and that it cannot pay for one contract yet.
    expect(await page.getByTestId('paying-account').textContent()).toContain(en.user.accountType.index);
    const max = page.getByTestId('max-lots');
    expect(await max.getAttribute('data-value')).toBe('0');
    // Counted in contracts, not in "shares 300".
    expect(await page.getByTestId('buy-contracts').textContent()).toBe('1 contract');
    expect(await page.getByTestId('buy-shares').count()).toBe(0);

    // At 5× the main account can cover it: one tap offers the transfer, the sheet says what arrives.
    await page.getByTestId('leverage-5').click();
    const offer = page.getByTestId('quick-transfer');
    await offer.waitFor();
    const amount = Number(await offer.getAttribute('data-amount'));
    expect(amount).toBeGreaterThan(0);
    await offer.click();
    const sheet = page.getByTestId('quick-transfer-sheet');
    expect(await sheet.getByTestId('quick-transfer-arrives').textContent()).toBe(`CNY ${money(amount)}`);
    // Cancel moves nothing.
    await sheet.getByRole('button', { name: en.common.cancel }).click();
    expect(await availableIn(session, 'index')).toBe(0);
    await offer.click();
    await sheet.getByTestId('confirm-submit').click();
    await sheet.waitFor({ state: 'detached' });
    expect(await availableIn(session, 'index')).toBe(amount);
    expect(await availableIn(session, 'main')).toBe(1_000_000 - amount);
    // The form follows: now it can buy, and the offer is gone.
    await page.locator('[data-testid="max-lots"]:not([data-value="0"])').waitFor();
    expect(await offer.count()).toBe(0);

    await page.getByTestId('buy-confirm').click();
    const confirm = page.getByTestId('order-confirm-sheet');
    await confirm.waitFor();
    expect(await confirm.getByTestId('bd-insufficient').count()).toBe(0);
    await confirm.getByTestId('order-submit').click();
    await page.waitForURL(/\/warehouse/);
    const open = await station().call<ListPage<Position>>('GET', '/user/position/list.do', session.token, {
      state: 'open',
      pageSize: 10,
    });
    expect(open.list).toHaveLength(1);
    expect(open.list[0]).toMatchObject({ code: 'SH000300', lots: 1, leverage: 5 });
    // The position's detail counts contracts too.
    await page.goto(`${url}/warehouse?lang=en`);
    await page.getByTestId('position-row').first().getByTestId('position-detail').click();
    await page.getByTestId('position-detail-screen').waitFor();
    expect(await page.getByTestId('f-lots').textContent()).toBe('1');
    expect(await page.getByTestId('f-shares').count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });

  it('the reverse: an A-share order short of cash in the main account is offered a transfer from the index account', async () => {
    const session = await newUser();
    await station().call('POST', '/user/transAmt.do', session.token, {
      amount: 999_000,
      from: 'main',
      to: 'index',
      requestId: crypto.randomUUID(),
    });
    const { page, errors, close } = await openAs(e2e.browser, session);
    await page.goto(`${url}/buy?code=600519&lang=en`);
    const offer = page.getByTestId('quick-transfer');
    await offer.waitFor();
    expect(await offer.textContent()).toContain(en.user.accountType.index);
    const amount = Number(await offer.getAttribute('data-amount'));
    await offer.click();
    await page.getByTestId('quick-transfer-sheet').getByTestId('confirm-submit').click();
    await page.locator('[data-testid="max-lots"]:not([data-value="0"])').waitFor();
    expect(await availableIn(session, 'main')).toBe(1_000 + amount);
    expect(await availableIn(session, 'index')).toBe(999_000 - amount);
    expect(errors).toEqual([]);
    await close();
  });

  it('confirms before money moves: a transfer, a fund purchase, an exchange whose preview is what arrives, and logout', async () => {
    const session = await newUser();
    const { page, errors, close } = await openAs(e2e.browser, session);

    // Transfer: the sheet names both accounts and the amount that arrives; nothing moves before Confirm.
    await page.goto(`${url}/transfer?lang=en`);
    await page.getByTestId('transfer-to').selectOption('index');
    await page.locator('input[name="amount"]').fill('2500.5');
    await page.getByTestId('transfer-submit').click();
    const transfer = page.getByTestId('transfer-sheet');
    expect(await transfer.getByTestId('transfer-arrives').textContent()).toBe('CNY 2,500.50');
    expect(await availableIn(session, 'index')).toBe(0);
    await transfer.getByTestId('confirm-submit').click();
    await transfer.waitFor({ state: 'detached' });
    expect(await availableIn(session, 'index')).toBe(2500.5);

    // Fund purchase: the units the sheet says arrive are the units the holding gets.
    await page.goto(`${url}/jijin?code=110011&lang=en`);
    await page.getByTestId('fund-amount').fill('1234.56');
    await page.getByTestId('fund-buy').click();
    const fund = page.getByTestId('fund-buy-sheet');
    expect(await fund.getByTestId('fund-confirm-pay').textContent()).toContain('1,234.56');
    const shownUnits = (await fund.getByTestId('fund-confirm-units').textContent())!;
    await fund.getByTestId('confirm-submit').click();
    await fund.waitFor({ state: 'detached' });
    const holdings = await station().call<FundHoldings>('GET', '/user/fund/holdings.do', session.token);
    expect(holdings.holdings).toHaveLength(1);
    expect(shownUnits).toBe(money(holdings.holdings[0]!.units));

    // Exchange: an amount where the rate × amount rounded to the nearest cent is a cent more than the
    // station's rounded-down credit; the preview says what arrives.
    const spread = await station().call<SpreadRate>('GET', '/api/user/findSpreadRateOne.do', session.token, {
      source: 'CNY',
      target: 'HKD',
    });
    const rates = await station().call<{ cnyPer: Record<'CNY' | 'HKD' | 'USD', number> }>(
      'GET',
      '/api/site/exchange/rate',
      null,
    );
    let amount = 10_000;
    const credited = (a: number) =>
      toMajor(exchangedAmount(toMinor(a), rates.cnyPer, 'CNY', 'HKD', spread.spreadRate));
    while (Math.round(amount * spread.rate! * 100) / 100 === credited(amount)) amount += 1;
    await page.goto(`${url}/exchange?lang=en`);
    await page.getByTestId('exchange-rate').getByTestId('spread-rate').waitFor();
    await page.locator('input[name="amount"]').fill(String(amount));
    await page.getByTestId('exchange-review').click();
    const exchangeSheet = page.getByTestId('exchange-confirm-sheet');
    const preview = (await exchangeSheet.getByTestId('confirm-receive').textContent())!;
    await page.getByTestId('exchange-confirm').click();
    await exchangeSheet.waitFor({ state: 'detached' });
    const log = await station().call<ListPage<ExchangeRecord>>(
      'GET',
      '/api/user/exchangeLog.do',
      session.token,
      {
        pageSize: 1,
      },
    );
    expect(preview).toContain(money(log.list[0]!.targetAmount));
    expect(log.list[0]!.targetAmount).toBe(credited(amount));

    // Logout asks first; Cancel keeps the session.
    await page.goto(`${url}/user?lang=en`);
    await page.getByTestId('logout').click();
    const logout = page.getByTestId('logout-sheet');
    expect(await logout.textContent()).toContain(en.user.logoutConfirmText);
    await logout.getByRole('button', { name: en.common.cancel }).click();
    expect(await page.getByTestId('logout').count()).toBe(1);
    await page.getByTestId('logout').click();
    await logout.getByTestId('confirm-submit').click();
    await page.waitForURL(/\/home/);
    expect(errors).toEqual([]);
    await close();
  });

  it('says what is wrong with a quantity, labels the fund password, and a revoked order holds no funds', async () => {
    const session = await newUser();
    const { page, errors, close } = await openAs(e2e.browser, session);
    await page.goto(`${url}/buy?code=600000&lang=en`);
    const lots = page.locator('input[name="lots"]');
    await lots.fill('101');
    expect(await page.getByTestId('error-lots').textContent()).toBe(
      en.validation.lotsAboveMaxOf.replace('{max}', '100'),
    );
    await lots.fill('abc');
    expect(await page.getByTestId('error-lots').textContent()).toBe(en.validation.lotsNotNumber);
    await page.getByTestId('buy-confirm').click();
    expect(await page.getByTestId('order-confirm-sheet').count()).toBe(0);

    // A pending limit order shows what it holds; once revoked, it holds nothing.
    const price = app.market.quote(app.market.get('AAPL'), clock.now()).price;
    await station().call<Order>('POST', '/user/addOrder.do', session.token, {
      code: 'AAPL',
      lots: 3,
      leverage: 1,
      triggerPrice: Math.round(price * 90) / 100,
      requestId: crypto.randomUUID(),
    });
    await page.goto(`${url}/warehouse?tab=orders&lang=en`);
    const row = page.getByTestId('order-row').first();
    await row.getByTestId('order-frozen').waitFor();
    await row.getByTestId('revoke-button').click();
    await page.getByTestId('revoke-confirm').click();
    await row
      .locator('[data-testid="order-status"]', { hasText: en.trading.orderStatus.cancelled })
      .waitFor();
    expect(await row.getByTestId('order-frozen').count()).toBe(0);

    // The withdrawal form asks for the fund password, not "set" one.
    await station().submitKyc(session.token, '王五');
    await app.kycReviewer.run();
    await station().call('POST', '/user/bank/add.do', session.token, {
      bankName: '工商银行',
      branch: '北京分行',
      cardNo: '6222020200119876543',
    });
    await station().call('POST', '/user/insertWithPwd.do', session.token, { withPwd: '135790' });
    await page.goto(`${url}/withdraw?lang=en`);
    await page.getByTestId('withdrawable').waitFor();
    expect(await page.locator('label[for]', { hasText: en.wallet.fundPassword }).count()).toBe(1);
    expect(await page.getByText(en.titles.withdrawPassword, { exact: true }).count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });
});

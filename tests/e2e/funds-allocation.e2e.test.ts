/**
 * Funds and fund allocation in Chromium at 390×844 against a station with a pinned clock (always-open: each
 * UTC day trades and closes at 00:00 UTC; the engine steps only when the test says so): apply for an
 * allocation with the fee shown before confirming → the reviewer approves it → buy in the sub-account and
 * see its positions → at expiry the positions are closed and the allocation repaid; and buying a fund.
 */
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import en from '../../locales/en';
import { FixedClock } from '../../server/market/clock';
import type { FundHoldings, SubAccount } from '../../src/shared/api/funds';
import type { Page as ListPage, Position, User } from '../../src/shared/api/types';
import { openAs as openPhoneAs, stationClient, type E2eSession as Session } from './harness';
import { stationForFile } from './file-station';

/** Wednesday 2025-03-12 02:00 UTC. */
const T0 = Date.UTC(2025, 2, 12, 2, 0, 0);
const FIRST_CLOSE = Date.UTC(2025, 2, 13);
const DAY = 86_400_000;

let app: FastifyInstance;
let url: string;
const clock = new FixedClock(T0);

const e2e = stationForFile({}, { clock }, (station) => {
  ({ app, url } = station);
  client = stationClient(url);
});

let client: ReturnType<typeof stationClient>;
const api = <T>(path: string, token: string | null, query?: Record<string, string | number>) =>
  client.call<T>('GET', path, token, query);
const registerUser = () => client.registerUser('1390013');
const openAs = (session: Session) => openPhoneAs(e2e.browser, session);

const mainBalance = async (session: Session) =>
  (await api<User>('/user/getUserInfo.do', session.token)).accounts.find((a) => a.type === 'main')!.balance;

describe('funds and fund allocation screens in Chromium at 390×844', () => {
  it('applies for an allocation (fee shown) → trades in the sub-account → expiry closes and repays', async () => {
    clock.set(T0);
    const session = await registerUser();
    const { page, errors, close } = await openAs(session);

    await page.goto(`${url}/funds?lang=en`);
    await page.getByTestId('apply-days').click();
    await page.waitForURL(/\/days\?type=days/);
    await page.getByTestId('allocation-margin').fill('10000');
    await page.getByTestId('multiple-5').click();
    await page.getByTestId('allocation-days').fill('2');
    // The management fee before confirming: 0.1% a day of 50,000 allocated, for 2 days.
    expect(await page.getByTestId('quote-allocated').textContent()).toContain('50,000.00');
    expect(await page.getByTestId('quote-daily-fee').textContent()).toContain('50.00');
    expect(await page.getByTestId('quote-total-fee').textContent()).toContain('100.00');
    await page.getByTestId('allocation-apply').click();
    expect(await page.getByTestId('allocation-error').textContent()).toBe(en.fundsUi.agreeRequired);
    await page.getByTestId('allocation-agree').check();
    await page.getByTestId('allocation-apply').click();
    const confirmText = page.getByTestId('allocation-confirm-text');
    await confirmText.waitFor();
    expect(await confirmText.textContent()).toContain('100.00');
    await page.getByTestId('allocation-confirm').click();
    await page.waitForURL(/\/fundslist\?id=\d+/);
    const applyId = Number(new URL(page.url()).searchParams.get('id'));
    await page.getByTestId('allocation-view').waitFor();
    expect(await page.getByTestId('allocation-status').first().textContent()).toContain(
      en.fundsUi.status.review,
    );
    expect(await mainBalance(session)).toBe(1_000_000 - 10_000);

    // The reviewer approves REVIEW_DELAY_S later.
    clock.set(T0 + app.config.reviewDelaySeconds * 1000);
    await app.engine.step();
    await page.reload();
    expect(await page.getByTestId('view-cash').textContent()).toContain('60,000.00');
    expect(await page.getByTestId('allocation-status').first().textContent()).toContain(
      en.fundsUi.status.trading,
    );

    // Buying in the sub-account.
    await page.getByTestId('sub-buy-link').click();
    await page.waitForURL(/\/subWarehouseBuy\?applyId=/);
    await page.getByTestId('sub-code').fill('600000');
    await page.getByTestId('sub-price').waitFor();
    await page.getByTestId('sub-lots').fill('2');
    await page.getByTestId('sub-cost').waitFor();
    await page.getByTestId('sub-buy').click();
    // Money never moves on one tap: the sheet says what it takes, then the order goes.
    await page.getByTestId('sub-buy-sheet').getByTestId('confirm-submit').click();
    await expect
      .poll(
        async () =>
          (await api<SubAccount>('/user/funds/getUserSubaccount.do', session.token)).positions.length,
      )
      .toBe(1);
    const position = (await api<SubAccount>('/user/funds/getUserSubaccount.do', session.token)).positions[0]!;
    expect(position).toMatchObject({ code: '600000', lots: 2, leverage: 1 });

    // The split account's positions on /holdorderlist2.
    await page.goto(`${url}/holdorderlist2?applyId=${applyId}&lang=en`);
    await page.getByTestId(`sub-position-${position.id}`).waitFor();

    // Expiry at the close of the second trading day: closed at the day's last price and repaid.
    clock.set(FIRST_CLOSE + DAY + 5 * 60_000);
    await app.engine.step();
    await page.goto(`${url}/fundslist?id=${applyId}&lang=en`);
    await page.getByTestId('view-returned').waitFor();
    expect(await page.getByTestId('allocation-status').first().textContent()).toContain(
      en.fundsUi.status.expired,
    );
    const sub = await api<SubAccount>('/user/funds/getUserSubaccount.do', session.token, { applyId });
    expect(sub.allocation).toMatchObject({ status: 'expired', endReason: 'expiry', feesCharged: 100 });
    expect(await mainBalance(session)).toBeCloseTo(1_000_000 - 10_000 + sub.allocation.returned!, 2);
    const closed = await api<ListPage<Position>>('/user/funds/fundsList.do', session.token, {
      applyId,
      state: 'closed',
    });
    expect(closed.list.map((p) => p.closeReason)).toEqual(['expiry']);

    await page.goto(`${url}/holdorderlist2?applyId=${applyId}&lang=en`);
    await page.getByTestId('sub-tab-closed').click();
    expect(await page.getByTestId('sub-close-reason').first().textContent()).toBe(
      en.positions.closeReason.expiry,
    );
    expect(errors).toEqual([]);
    await close();
  });

  it("buys a fund at the day's NAV and shows it in the holdings", async () => {
    clock.set(T0);
    const session = await registerUser();
    const { page, errors, close } = await openAs(session);
    await page.goto(`${url}/jijin?lang=en`);
    await page.getByTestId('fund-110011').click();
    await page.waitForURL(/\/jijin\?code=110011/);
    await page.getByTestId('nav-chart').waitFor();
    await page.getByTestId('fund-amount').fill('1000');
    await page.getByTestId('fund-estimate').waitFor();
    await page.getByTestId('fund-buy').click();
    await page.getByTestId('fund-buy-sheet').getByTestId('confirm-submit').click();
    await expect
      .poll(async () => (await api<FundHoldings>('/user/fund/holdings.do', session.token)).holdings.length)
      .toBe(1);
    expect(await mainBalance(session)).toBe(1_000_000 - 1_000);
    await page.goto(`${url}/jijin?tab=holdings&lang=en`);
    await page.getByTestId('fund-holdings').waitFor();
    // Fund names come in the reader's language, as instrument names do.
    expect(await page.getByTestId('fund-holdings').textContent()).toContain('Quality Growth Mixed Fund');
    expect(errors).toEqual([]);
    await close();
  });
});

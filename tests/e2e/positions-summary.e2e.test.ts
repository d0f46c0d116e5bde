/**
 * The positions page's account summary and the risk gauge, in Chromium at 390×844 against a station with a
 * pinned clock (always-open; the clock moves a day on, so today's P&L runs from the previous close and
 * differs from the P&L since the open): a US stock and an A-share bought with leverage show a summary per
 * currency, every amount with its currency, today's and since-open P&L, and the whole row opens the
 * detail; the personal centre shows a gauge with its sentence for each leveraged account and explains the
 * lines once.
 */
import { describe, expect, it } from 'vitest';
import { FixedClock } from '../../server/market/clock';
import { fallPercent, riskStanding } from '../../src/shared/risk-gauge';
import type { Page as ListPage, Position, StockDetail, User } from '../../src/shared/api/types';
import { openAs, stationClient } from './harness';
import { stationForFile } from './file-station';

/** Wednesday 2025-03-12 02:00 UTC. */
const T0 = Date.UTC(2025, 2, 12, 2, 0, 0);
const HOUR = 3_600_000;

let url: string;
const clock = new FixedClock(T0);
const e2e = stationForFile({}, { clock }, (station) => {
  ({ url } = station);
});

describe('the positions summary and the risk gauge in Chromium at 390×844', () => {
  it('shows each currency, the currency of every amount, both P&Ls, a tappable row and the gauges', async () => {
    const station = stationClient(url);
    const session = await station.registerUser('1390087');
    // Holdings worth about four times the cash at 5×: little spare cash, so a fall of prices can reach the
    // warning line (spare cash counts as collateral too).
    for (const [code, cash, sharesPerLot] of [
      ['AAPL', 100_000, 1],
      ['600519', 1_000_000, 100],
    ] as const) {
      const { price } = await station.call<StockDetail>('GET', '/api/stock/getSingleStock.do', null, {
        code,
      });
      await station.call<Position>('POST', '/user/buy.do', session.token, {
        code,
        lots: Math.floor((4 * cash) / (price * sharesPerLot)),
        leverage: 5,
        requestId: crypto.randomUUID(),
      });
    }
    // The next trading day: prices have moved since the open and since the previous close.
    clock.advance(25 * HOUR);
    const held = (
      await station.call<ListPage<Position>>('GET', '/user/position/list.do', session.token, {
        state: 'open',
      })
    ).list;
    const user = await station.call<User>('GET', '/user/getUserInfo.do', session.token);
    const account = (type: string) => user.accounts.find((a) => a.type === type)!;

    const { page, errors, close } = await openAs(e2e.browser, session);
    await page.goto(`${url}/warehouse?lang=en`);
    const summary = page.getByTestId('account-summary');
    await summary.getByTestId('summary-USD').waitFor();
    for (const [currency, type] of [
      ['USD', 'us'],
      ['CNY', 'main'],
    ] as const) {
      const card = summary.getByTestId(`summary-${currency}`);
      expect(await card.getByTestId('summary-today-currency').textContent()).toBe(currency);
      // CNY adds main, index and newstock; each of those but main holds nothing today.
      expect(Number(await card.getByTestId('summary-today').getAttribute('data-value'))).toBe(
        account(type).todayPnl,
      );
    }
    expect(account('us').todayPnl).not.toBe(0);

    const rows = page.getByTestId('positions-open').getByTestId('position-row');
    await expect.poll(() => rows.count()).toBe(2);
    for (const position of held) {
      const row = page.locator(`[data-testid="position-row"][data-position-id="${position.id}"]`);
      const currency = position.market === 'us' ? 'USD' : 'CNY';
      expect(position.currency).toBe(currency);
      for (const amount of ['pnl', 'today-pnl', 'market-value', 'margin', 'fees']) {
        expect(await row.getByTestId(`position-${amount}-currency`).textContent()).toBe(currency);
      }
      expect(Number(await row.getByTestId('position-today-pnl').getAttribute('data-value'))).toBe(
        position.todayPnl,
      );
      expect(Number(await row.getByTestId('position-pnl').getAttribute('data-value'))).toBe(position.pnl);
      expect(position.todayPnl).not.toBe(position.pricePnl);
    }

    // Anywhere on the row opens the detail, not only the name.
    const us = held.find((p) => p.market === 'us')!;
    await page
      .locator(`[data-testid="position-row"][data-position-id="${us.id}"]`)
      .getByTestId('position-fees')
      .click({ force: true });
    await page.getByTestId('position-detail-screen').waitFor();
    expect(new URL(page.url()).searchParams.get('id')).toBe(String(us.id));

    await page.goto(`${url}/user?lang=en`);
    await page.getByTestId('account-us-risk').waitFor();
    for (const type of ['us', 'main']) {
      const a = account(type);
      const standing = riskStanding({ ...a, ratio: a.riskRatio });
      expect(standing.level).toBe('safe');
      if (standing.level === 'none' || standing.fallToWarning === null)
        throw new Error('a fall reaches the line');
      const gauge = page.getByTestId(`account-${type}-risk`);
      expect(await gauge.getAttribute('data-level')).toBe('safe');
      expect(await gauge.getByTestId('risk-level').textContent()).toBe('Safe');
      expect(await gauge.getByRole('meter').getAttribute('aria-valuetext')).toMatch(/^Safe, Risk ratio /);
      expect(await gauge.getByTestId('risk-sentence').textContent()).toBe(
        `Your positions can fall about ${fallPercent(standing.fallToWarning)}% before the warning line`,
      );
    }
    // Accounts that borrow nothing have no gauge; the lines are explained once on the page.
    expect(await page.getByTestId('account-hk-risk').count()).toBe(0);
    expect(await page.getByTestId('risk-lines-note').count()).toBe(1);
    expect(await page.getByText('Warning and liquidation lines').count()).toBe(1);
    expect(errors).toEqual([]);
    await close();
  });
});

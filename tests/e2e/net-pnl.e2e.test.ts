/**
 * Net P&L and the liquidation price on the trading screens, in Chromium at 390×844 against a station with
 * a pinned clock (DOMAIN.md "Leverage, margin and liquidation", "P&L"): a Hong Kong round trip at an
 * unchanged price shows the loss of its fees on the closed position; the position detail shows the price
 * P&L, each fee, the total fees and the net P&L; a stop loss beyond the liquidation price is accepted with
 * a warning naming both prices, on the buy screen, its confirm sheet and when setting stops; an index quoted
 * in Hong Kong dollars is settled in yuan at the day's rate.
 */
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { FixedClock } from '../../server/market/clock';
import { formatMoney } from '../../src/shared/format';
import type { Page as ListPage, Position } from '../../src/shared/api/types';
import { openAs, stationClient } from './harness';
import { stationForFile } from './file-station';

/** Wednesday 2025-03-12 02:00 UTC; the station runs always-open. */
const T0 = Date.UTC(2025, 2, 12, 2, 0, 0);
const fen = (major: number) => Math.round(major * 100);
const money = (value: number) => formatMoney(value, 'en');

let app: FastifyInstance;
let url: string;
const clock = new FixedClock(T0);
const e2e = stationForFile({}, { clock }, (station) => {
  ({ app, url } = station);
});
const client = () => stationClient(url);

async function positions(token: string, state: 'open' | 'closed'): Promise<Position[]> {
  return (
    await client().call<ListPage<Position>>('GET', '/user/position/list.do', token, { state, pageSize: 100 })
  ).list;
}

describe('net P&L and the liquidation price in Chromium at 390×844', () => {
  it('shows a Hong Kong round trip at an unchanged price as the loss of its fees, with the breakdown', async () => {
    const station = client();
    const session = await station.registerUser('1390021');
    const bought = await station.call<Position>('POST', '/user/buy.do', session.token, {
      code: '00700',
      lots: 2,
      leverage: 2,
      requestId: crypto.randomUUID(),
    });
    const sold = await station.call<Position>('POST', '/user/sell.do', session.token, {
      positionId: bought.id,
      requestId: crypto.randomUUID(),
    });
    expect(sold.closePrice).toBe(bought.openPrice);
    const fees = fen(sold.buyFee) + fen(sold.sellFee) + fen(sold.stampDuty) + fen(sold.deferredFee);
    expect(fees).toBeGreaterThan(0);

    const { page, errors, close } = await openAs(e2e.browser, session);
    await page.goto(`${url}/warehouse?tab=closed&lang=en`);
    const row = page.getByTestId('positions-closed').getByTestId('position-row').first();
    await row.waitFor();
    const pnl = row.getByTestId('position-pnl');
    expect(Number(await pnl.getAttribute('data-value'))).toBe(-fees / 100);
    expect((await pnl.textContent())?.trim()).toBe(money(-fees / 100));

    // The detail: the price P&L (nothing), each fee, their total, and the net P&L = − total.
    await page.goto(`${url}/detail?id=${sold.id}&lang=en`);
    await page.getByTestId('position-detail-screen').waitFor();
    const text = async (id: string) => (await page.getByTestId(id).textContent())?.trim();
    expect(await text('f-price-pnl')).toBe(money(0));
    expect(await text('f-buy-fee')).toBe(money(sold.buyFee));
    expect(await text('f-sell-fee')).toBe(money(sold.sellFee));
    expect(await text('f-stamp-duty')).toBe(money(sold.stampDuty));
    expect(await text('f-fees')).toBe(money(fees / 100));
    expect(await text('f-net-pnl')).toBe(money(-fees / 100));
    expect(await text('f-pnl')).toBe(money(-fees / 100));
    expect(errors).toEqual([]);
    await close();
  });

  it('shows an open position with its price P&L, fees and net P&L on the detail', async () => {
    const station = client();
    const session = await station.registerUser('1390022');
    const bought = await station.call<Position>('POST', '/user/buy.do', session.token, {
      code: 'AAPL',
      lots: 10,
      leverage: 2,
      requestId: crypto.randomUUID(),
    });
    // Later, at another price: the price P&L moves, the fees stay.
    clock.advance(3_600_000);
    const [open] = await positions(session.token, 'open');
    expect(open!.currentPrice).not.toBe(bought.openPrice);
    const { page, errors, close } = await openAs(e2e.browser, session);
    await page.goto(`${url}/detail?id=${bought.id}&lang=en`);
    await page.getByTestId('position-detail-screen').waitFor();
    const text = async (id: string) => (await page.getByTestId(id).textContent())?.trim();
    await expect.poll(() => text('f-price-pnl')).toBe(money(open!.pricePnl));
    expect(await text('f-fees')).toBe(money(open!.fees));
    expect(open!.fees).toBe(open!.buyFee);
    expect(await text('f-net-pnl')).toBe(money(open!.pnl));
    expect(fen(open!.pnl)).toBe(fen(open!.pricePnl) - fen(open!.fees));
    expect(errors).toEqual([]);
    await close();
  });

  it('accepts a stop loss beyond the liquidation price with a warning naming both prices', async () => {
    const station = client();
    const session = await station.registerUser('1390023');
    const code = 'AAPL';
    const price = app.market.quote(app.market.get(code), clock.now()).price;
    // About half the US$100,000 as margin at 5×: the account's R reaches the liquidation line at a
    // positive price, well above US$1.00.
    const lots = Math.floor(250_000 / price);
    const { page, errors, close } = await openAs(e2e.browser, session);
    await page.goto(`${url}/buy?code=${code}&lang=en`);
    await page.locator('input[name="lots"]').fill(String(lots));
    await page.getByTestId('leverage-5').click();
    const warning = page.getByTestId('stop-loss-liquidation-warning');
    await page.locator('input[name="stopLoss"]').fill((price * 0.9).toFixed(2));
    expect(await warning.count()).toBe(0);
    await page.locator('input[name="stopLoss"]').fill('1');
    await warning.waitFor();
    await page.getByTestId('buy-confirm').click();
    const sheet = page.getByTestId('order-confirm-sheet');
    await sheet.waitFor();
    const shownLiquidation = (await sheet.getByTestId('bd-liquidation').textContent())!.trim();
    expect(await warning.textContent()).toContain(money(1));
    expect(await warning.textContent()).toContain(shownLiquidation);
    // The sheet where the user confirms says it again.
    expect(await sheet.getByTestId('confirm-stop-loss-warning').textContent()).toBe(
      await warning.textContent(),
    );
    await sheet.getByTestId('order-submit').click();
    await page.waitForURL(/\/warehouse/);
    const [position] = await positions(session.token, 'open');
    expect(position).toMatchObject({ code, lots, leverage: 5, stopLoss: 1 });
    expect(position!.liquidationPrice!).toBeGreaterThan(1);

    // Setting stops on the position: the same warning with the position's own liquidation price.
    await page.goto(`${url}/detail?id=${position!.id}&lang=en`);
    await page.getByTestId('stops-button').click();
    const stops = page.getByTestId('stops-sheet');
    await stops.waitFor();
    const stopLoss = Number((position!.liquidationPrice! - 1).toFixed(2));
    await stops.locator('input[name="stopLoss"]').fill(String(stopLoss));
    const stopsWarning = stops.getByTestId('stops-liquidation-warning');
    await stopsWarning.waitFor();
    expect(await stopsWarning.textContent()).toContain(money(stopLoss));
    expect(await stopsWarning.textContent()).toContain(money(position!.liquidationPrice!));
    await stops.locator('input[name="stopLoss"]').fill(String(position!.liquidationPrice! + 1));
    expect(await stopsWarning.count()).toBe(0);
    await stops.locator('input[name="stopLoss"]').fill(String(stopLoss));
    await stops.getByTestId('stops-confirm').click();
    await expect.poll(async () => (await positions(session.token, 'open'))[0]!.stopLoss).toBe(stopLoss);
    expect(errors).toEqual([]);
    await close();
  });

  it("shows a Hang Seng order settled in yuan at the day's rate, with its margin in yuan", async () => {
    const station = client();
    const session = await station.registerUser('1390024');
    const rates = app.market.exchangeRates(clock.now());
    const rate = Number(rates.cnyPer.HKD.toFixed(6));
    const { page, errors, close } = await openAs(e2e.browser, session);
    await page.goto(`${url}/indexBuy?code=HSI&lang=en`);
    const settlement = page.getByTestId('settlement-rate');
    await settlement.waitFor();
    const text = (await settlement.textContent())!;
    expect(text).toContain('HKD');
    expect(text).toContain(`1 HKD = ${formatMoney(rate, 'en', 4)} CNY`);
    // One contract at 1×: HK$50 a point × the price × the rate, in yuan.
    await page.getByTestId('leverage-1').click();
    const price = Number(await page.getByTestId('buy-price').getAttribute('data-value'));
    await page.getByTestId('buy-confirm').click();
    const sheet = page.getByTestId('order-confirm-sheet');
    await sheet.waitFor();
    expect((await sheet.getByTestId('bd-margin').textContent())!.trim()).toBe(
      `CNY ${money(Math.round(price * 50 * rate * 100) / 100)}`,
    );
    expect(errors).toEqual([]);
    await close();
  });
});

/**
 * The buy form knows before the user starts, in Chromium at 390×844 against a station on the real exchange
 * calendars with a pinned clock and the spec's KYC rule (ORDERS_NEED_KYC=true): a holiday with its name and
 * the next open in the exchange's time, the lunch break, a US stock closed overnight, and real-name
 * verification with the way to finish it — all on the form, before lots or leverage are chosen.
 */
import { describe, expect, it } from 'vitest';
import en from '../../locales/en';
import { FixedClock } from '../../server/market/clock';
import { formatExchangeTime } from '../../src/shared/format';
import { openAs, stationClient } from './harness';
import { stationForFile } from './file-station';

const HOUR_MS = 3_600_000;
/** A Beijing wall-clock time (UTC+8) as epoch ms. */
const sh = (y: number, mo: number, d: number, h: number, mi = 0) =>
  Date.UTC(y, mo - 1, d, h, mi) - 8 * HOUR_MS;
/** A New York wall-clock time in winter (UTC−5). */
const ny = (y: number, mo: number, d: number, h: number, mi = 0) =>
  Date.UTC(y, mo - 1, d, h, mi) + 5 * HOUR_MS;

/** Wednesday 2025-01-29, 10:00 in Beijing: the Spring Festival closes the A-share market until 5 February. */
const clock = new FixedClock(sh(2025, 1, 29, 10));
let url: string;
const e2e = stationForFile({ CLOCK_MODE: 'real', ORDERS_NEED_KYC: 'true' }, { clock }, (station) => {
  ({ url } = station);
});

describe('the buy form knows before the user starts', () => {
  it('says the holiday by name, the lunch break and a US night, each with the next open, and the KYC to finish', async () => {
    const client = stationClient(url);
    const session = await client.registerUser('1370277');
    const { page, errors, close } = await openAs(e2e.browser, session);

    await page.goto(`${url}/buy?code=600519&lang=en`);
    const state = page.getByTestId('market-state');
    await state.waitFor();
    expect(await state.getAttribute('data-state')).toBe('holiday');
    expect(await state.textContent()).toContain(
      en.buy.marketHoliday
        .replace('{name}', en.stationTexts.holiday.springFestival)
        .replace(
          '{time}',
          formatExchangeTime(sh(2025, 2, 5, 9, 30), 'beijing', en.exchangeTime.zone.beijing),
        ),
    );
    expect(await state.textContent()).toContain(en.buy.marketClosedNote);
    // Real-name verification is needed here, said on the form with the way to do it.
    const kyc = page.getByTestId('kyc-state');
    expect(await kyc.textContent()).toContain(en.buy.kycNeeded);
    // And what the user can already plan: the paying account and the most it buys.
    expect(await page.getByTestId('paying-account').textContent()).toContain(en.user.accountType.main);
    expect(Number(await page.getByTestId('max-lots').getAttribute('data-value'))).toBeGreaterThan(0);
    await kyc.getByTestId('kyc-link').click();
    await page.waitForURL(/\/authentication/);

    // The first trading day after the festival, at noon: the lunch break, and the afternoon open. The KYC is
    // submitted now, and the pinned clock keeps it under review (REVIEW_DELAY_S has not passed).
    clock.set(sh(2025, 2, 5, 12));
    await client.submitKyc(session.token, '王五');

    await page.goto(`${url}/buy?code=600519&lang=en`);
    await page.locator('[data-testid="market-state"][data-state="lunch"]').waitFor();
    expect(await state.textContent()).toContain(
      en.buy.marketLunch.replace(
        '{time}',
        formatExchangeTime(sh(2025, 2, 5, 13), 'beijing', en.exchangeTime.zone.beijing),
      ),
    );
    // Submitted for review: the form says it is under review, with no link to do it again.
    const pending = page.getByTestId('kyc-state');
    expect(await pending.getAttribute('data-state')).toBe('pending');
    expect(await pending.textContent()).toContain(en.buy.kycPending);
    expect(await pending.getByTestId('kyc-link').count()).toBe(0);

    // Noon in Beijing is 23:00 the evening before in New York: a US stock opens at 09:30 there.
    await page.goto(`${url}/buy?code=AAPL&lang=en`);
    await page.locator('[data-testid="market-state"][data-state="closed"]').waitFor();
    expect(await state.textContent()).toContain(
      en.buy.marketClosed.replace(
        '{time}',
        formatExchangeTime(ny(2025, 2, 5, 9, 30), 'newYork', en.exchangeTime.zone.newYork),
      ),
    );
    expect(errors).toEqual([]);
    await close();
  });
});

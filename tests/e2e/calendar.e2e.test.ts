/**
 * The trading calendar in Chromium at 390×844, against a station on the real exchange calendars with a
 * pinned clock (Wednesday 29 January 2025, 10:00 in Beijing: the Spring Festival closes the A-share market
 * and the Lunar New Year the Hong Kong one): opened from the buy form's market line, it shows every market's
 * sessions, the holiday by name with the next open, and — in Vietnamese — the holiday's Vietnamese name.
 */
import { describe, expect, it } from 'vitest';
import en from '../../locales/en';
import vi from '../../locales/vi';
import { FixedClock } from '../../server/market/clock';
import { formatExchangeTime } from '../../src/shared/format';
import { openAs, stationClient } from './harness';
import { stationForFile } from './file-station';

const HOUR_MS = 3_600_000;
/** A Beijing wall-clock time (UTC+8) as epoch ms. */
const sh = (y: number, mo: number, d: number, h: number, mi = 0) =>
  Date.UTC(y, mo - 1, d, h, mi) - 8 * HOUR_MS;

const clock = new FixedClock(sh(2025, 1, 29, 10));
let url: string;
const e2e = stationForFile({ CLOCK_MODE: 'real', ORDERS_NEED_KYC: 'false' }, { clock }, (station) => {
  ({ url } = station);
});

describe('the trading calendar', () => {
  it('opens from the buy form and shows each market’s sessions, the holiday by name and the next open', async () => {
    const session = await stationClient(url).registerUser('1370388');
    const { page, errors, close } = await openAs(e2e.browser, session);

    await page.goto(`${url}/buy?code=600519&lang=en`);
    await page.locator('[data-testid="market-state"][data-state="holiday"]').waitFor();
    await page.getByTestId('market-calendar-link').click();
    await page.waitForURL(/\/calendar\?market=a/);

    const a = page.getByTestId('calendar-a');
    await a.getByTestId('calendar-sessions').waitFor();
    expect(await a.getByTestId('calendar-sessions').getAttribute('data-state')).toBe('holiday');
    expect(await a.getByTestId('calendar-sessions').textContent()).toContain('09:30-11:30 · 13:00-15:00');
    const springFestival = en.stationTexts.holiday.springFestival;
    expect(await a.getByTestId('calendar-state').textContent()).toBe(
      en.calendar.state.holiday.replace('{name}', springFestival),
    );
    const nextOpen = formatExchangeTime(sh(2025, 2, 5, 9, 30), 'beijing', en.exchangeTime.zone.beijing);
    expect(await a.getByTestId('calendar-next-open').textContent()).toContain(
      en.calendar.nextOpen.replace('{time}', nextOpen),
    );
    // The festival's whole run is listed, with the open after it.
    const first = a.getByTestId('calendar-day').first();
    expect(await first.getByTestId('calendar-day-name').textContent()).toBe(springFestival);
    expect(await first.textContent()).toContain(en.calendar.reopens.replace('{time}', nextOpen));

    // Hong Kong is closed for the Lunar New Year; New York (21:00 the evening before) and the futures have
    // their sessions too, the futures one group per set of sessions.
    const hk = page.getByTestId('calendar-hk');
    await hk.getByTestId('calendar-sessions').waitFor();
    expect(await hk.getByTestId('calendar-state').textContent()).toBe(
      en.calendar.state.holiday.replace('{name}', en.stationTexts.holiday.lunarNewYear1),
    );
    expect(await hk.getByTestId('calendar-sessions').textContent()).toContain('09:30-12:00 · 13:00-16:00');
    const us = page.getByTestId('calendar-us');
    await us.getByTestId('calendar-sessions').waitFor();
    expect(await us.getByTestId('calendar-sessions').getAttribute('data-state')).toBe('closed');
    expect(await us.getByTestId('calendar-sessions').textContent()).toContain('09:30-16:00');
    const futures = page.getByTestId('calendar-futures');
    await futures.getByTestId('calendar-sessions').first().waitFor();
    expect(await futures.getByTestId('calendar-sessions').count()).toBeGreaterThan(1);
    expect(await futures.textContent()).toContain('21:00-');

    // In Vietnamese the station names the holiday in Vietnamese.
    await page.goto(`${url}/calendar?market=a&lang=vi`);
    const viDay = page.getByTestId('calendar-a').getByTestId('calendar-day-name').first();
    await viDay.waitFor();
    expect(await viDay.textContent()).toBe(vi.stationTexts.holiday.springFestival);
    expect(await page.getByTestId('calendar-a').getByTestId('calendar-state').textContent()).toBe(
      vi.calendar.state.holiday.replace('{name}', vi.stationTexts.holiday.springFestival),
    );
    expect(errors).toEqual([]);
    await close();
  });
});

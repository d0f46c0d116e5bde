/**
 * Price alerts in Chromium at 390×844, against a station with a pinned clock (always-open): the user sets an
 * alert from a stock's detail screen (the bell beside the watchlist star), a condition already met is refused
 * on the form, the station's engine reaches the minute the price crosses, and the alert arrives while the app
 * is open as a toast (through the message stream), in the message centre, and as fired on /alerts, where it
 * can be deleted. The crossing is found by scanning the seeded market, never hard-coded.
 */
import { describe, expect, it } from 'vitest';
import en from '../../locales/en';
import { FixedClock } from '../../server/market/clock';
import { openAs, stationClient, type E2eStation } from './harness';
import { stationForFile } from './file-station';

/** Wednesday 2025-03-12 02:00 UTC. */
const T0 = Date.UTC(2025, 2, 12, 2, 0, 0);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let station: E2eStation;
const clock = new FixedClock(T0);
const e2e = stationForFile({}, { clock }, (started) => {
  station = started;
});

/** A price the stock first reaches some minutes after `from` (the next two hours' high), and that minute. */
function rise(code: string, from: number): { value: number; at: number } {
  const market = station.app.market;
  const instrument = market.get(code);
  const priceAt = (t: number) => market.quote(instrument, t).price;
  const now = priceAt(from);
  let high = now;
  for (let t = from + MINUTE; t <= from + 2 * HOUR; t += MINUTE) high = Math.max(high, priceAt(t));
  if (high <= now) throw new Error(`${code} does not rise within two hours`);
  for (let t = from + MINUTE; ; t += MINUTE) if (priceAt(t) >= high) return { value: high, at: t };
}

describe('price alerts in Chromium at 390×844', () => {
  it('sets an alert on a stock, refuses one already met, and brings it as a toast, a message and a fired row', async () => {
    const api = stationClient(station.url);
    const user = await api.registerUser('1390093');
    const code = '600519';
    const crossing = rise(code, T0);
    const price = station.app.market.quote(station.app.market.get(code), T0).price;

    const { page, errors, close } = await openAs(e2e.browser, user);
    await page.goto(`${station.url}/listdetail?code=${code}&lang=en`);
    await page.getByTestId('alert-button').click();
    const sheet = page.getByTestId('alert-sheet');
    await sheet.getByTestId('empty').waitFor();

    // Below the current price "rises to" would fire at once: the shared rule refuses it on the form.
    await sheet.locator('input[name="value"]').fill(String(Math.floor(price * 0.5)));
    await sheet.getByTestId('alert-submit').click();
    expect(await sheet.getByTestId('error-value').textContent()).toBe(en.validation.alertAlreadyMet);

    await sheet.locator('input[name="value"]').fill(String(crossing.value));
    await sheet.getByTestId('alert-submit').click();
    const row = sheet.getByTestId('alert-row');
    await row.waitFor();
    expect(await row.getAttribute('data-state')).toBe('armed');
    expect(await row.getByTestId('alert-condition').textContent()).toContain('Price ≥');

    // The app opens its message stream once the screen has settled; then the engine reaches the crossing
    // minute and the stream brings the alert to the open app.
    await expect.poll(() => station.app.messageFeed.openFor(user.user.id), { timeout: 20_000 }).toBe(1);
    clock.set(crossing.at);
    await station.app.engine.step();
    const toast = page.getByTestId('toast');
    await toast.filter({ hasText: en.userMessages.alertPriceAboveTitle }).waitFor({ timeout: 15_000 });
    expect(await toast.textContent()).toContain(code);
    await row.and(page.locator('[data-state="fired"]')).waitFor();

    await page.goto(`${station.url}/notify?lang=en`);
    const message = page.getByTestId('message-row').filter({ hasText: en.userMessages.alertPriceAboveTitle });
    await message.waitFor();
    expect(await message.textContent()).toContain(code);

    await page.goto(`${station.url}/alerts?lang=en`);
    const listed = page.getByTestId('alert-row');
    await listed.waitFor();
    expect(await listed.getAttribute('data-state')).toBe('fired');
    expect(await listed.getByTestId('alert-fired').textContent()).toContain('Fired at');
    await listed.getByTestId('alert-delete').click();
    await page.getByTestId('alerts-screen').getByTestId('empty').waitFor();

    expect(errors).toEqual([]);
    await close();
  });
});

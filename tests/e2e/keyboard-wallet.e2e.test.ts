/**
 * A transfer between accounts and a withdrawal done with the keyboard alone, in Chromium at 390×844 against a
 * real station with the wallet e2e's pinned clock (inside the deposit and withdrawal hours): Tab and
 * Shift+Tab to each control, typing, Enter, Space and the arrow keys; never a click and never a script
 * moving the focus. Each control reached shows a focus ring; the confirm and cancel sheets take the focus,
 * keep it while open and give it back to the control that opened them.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import en from '../../locales/en';
import { FixedClock } from '../../server/market/clock';
import type { User, Withdrawal } from '../../src/shared/api/types';
import { openAs, stationClient, type E2eSession } from './harness';
import { stationForFile } from './file-station';

let app: FastifyInstance;
let url: string;
/** Wednesday 2025-03-12 10:00 in Shanghai: a trading day inside the deposit and withdrawal hours. */
const clock = new FixedClock(Date.UTC(2025, 2, 12, 2, 0, 0));
const REVIEW_DELAY_MS = 5_000;

const e2e = stationForFile({ REVIEW_DELAY_S: String(REVIEW_DELAY_MS / 1000) }, { clock }, (station) => {
  ({ app, url } = station);
});

/** The station's reviewers decide what is due once the review delay has passed on the pinned clock. */
async function letTheStationDecide(): Promise<void> {
  clock.advance(REVIEW_DELAY_MS + 1000);
  await app.kycReviewer.run();
  await app.engine.step();
}

const WITHDRAW_PASSWORD = '135790';

/**
 * What the wallet e2e does on its screens before it transfers and withdraws, done here over HTTP: KYC passed
 * by the station's reviewer, a bank card, a withdrawal password and a deposit the station confirmed.
 */
async function readyToWithdraw(): Promise<E2eSession> {
  const station = stationClient(url);
  const session = await station.registerUser('1390077');
  await station.submitKyc(session.token, '张三');
  await letTheStationDecide();
  await station.call('POST', '/user/bank/add.do', session.token, {
    bankName: 'Paper Bank',
    branch: 'Main Street',
    cardNo: '6222021234567890123',
  });
  await station.call('POST', '/user/insertWithPwd.do', session.token, { withPwd: WITHDRAW_PASSWORD });
  await station.call('POST', '/user/recharge/inMoney.do', session.token, {
    amount: 2000,
    channelId: 1,
    requestId: crypto.randomUUID(),
  });
  await letTheStationDecide();
  const user = await station.call<User>('GET', '/user/getUserInfo.do', session.token);
  expect(user.kycStatus).toBe('passed');
  return session;
}

/** Whether the focused element draws a focus indicator: an outline of at least 2 px, not transparent. */
async function focusRingShows(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || !el.matches(':focus-visible')) return false;
    const style = getComputedStyle(el);
    return (
      style.outlineStyle !== 'none' &&
      parseFloat(style.outlineWidth) >= 2 &&
      style.outlineColor !== 'rgba(0, 0, 0, 0)' &&
      style.outlineColor !== 'transparent'
    );
  });
}

/**
 * Presses Tab (or Shift+Tab) until `selector` has the focus, at most `limit` presses; every control passed
 * on the way and the one reached must show the focus ring.
 */
async function tabTo(page: Page, selector: string, { back = false, limit = 60 } = {}): Promise<void> {
  for (let i = 0; i < limit; i++) {
    const focused = await page.evaluate((s) => {
      const el = document.activeElement;
      if (!el || el === document.body) return { on: false, control: null };
      return { on: el.matches(s), control: el.outerHTML.slice(0, 120) };
    }, selector);
    if (focused.control && !(await isDialog(page))) {
      expect(await focusRingShows(page), `focus ring on ${focused.control}`).toBe(true);
    }
    if (focused.on) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${back ? 'Shift+Tab' : 'Tab'} never reached ${selector}`);
}

/** The sheet itself has the focus (it takes it on opening; its title names it, no ring of its own). */
async function isDialog(page: Page): Promise<boolean> {
  return page.evaluate(() => document.activeElement?.getAttribute('role') === 'dialog');
}

async function focusedTestId(page: Page): Promise<string | null> {
  return page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);
}

/** Whether the focus is inside the element `testId` (the sheet, or a control in it). */
async function focusInside(page: Page, testId: string): Promise<boolean> {
  return page.evaluate(
    (id) => document.querySelector(`[data-testid="${id}"]`)?.contains(document.activeElement) ?? false,
    testId,
  );
}

/** Tab and Shift+Tab many times: the focus never leaves the sheet. */
async function focusStaysIn(page: Page, testId: string): Promise<void> {
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press(i < 7 ? 'Tab' : 'Shift+Tab');
    expect(await focusInside(page, testId), `focus after ${i + 1} presses`).toBe(true);
  }
}

const testId = (id: string) => `[data-testid="${id}"]`;

describe('wallet with the keyboard alone in Chromium at 390×844', () => {
  it('transfers between accounts and withdraws: focus ring, focus into each sheet and back to its opener', async () => {
    const session = await readyToWithdraw();
    const client = stationClient(url);
    const { page, errors, close } = await openAs(e2e.browser, session);
    const before = await client.call<User>('GET', '/user/getUserInfo.do', session.token);
    const balance = (user: User, type: string) => user.accounts.find((a) => a.type === type)!.available;

    // Transfer: the "to" account chosen with the arrow keys, an amount typed, reviewed in the sheet.
    await page.goto(`${url}/transfer`);
    await page.locator('form.wallet-form').waitFor();
    await tabTo(page, testId('transfer-to'));
    const toBefore = await page.locator(testId('transfer-to')).inputValue();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.locator(testId('transfer-to')).inputValue()).not.toBe(toBefore);
    const to = await page.locator(testId('transfer-to')).inputValue();
    expect(to).not.toBe(await page.locator(testId('transfer-from')).inputValue());
    const from = await page.locator(testId('transfer-from')).inputValue();
    await tabTo(page, 'input[name="amount"]');
    await page.keyboard.type('300');
    await tabTo(page, testId('transfer-submit'));
    await page.keyboard.press('Enter');
    const sheet = page.locator(testId('transfer-sheet'));
    await sheet.waitFor();
    expect(await focusInside(page, 'transfer-sheet')).toBe(true);
    expect(await page.getByTestId('transfer-arrives').textContent()).toContain('300.00');
    await focusStaysIn(page, 'transfer-sheet');
    // Escape closes it and the focus is back on the button that opened it.
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
    expect(await focusedTestId(page)).toBe('transfer-submit');
    expect(await focusRingShows(page)).toBe(true);
    // Space opens it again; Shift+Tab from the sheet reaches the confirm button, Enter sends.
    await page.keyboard.press('Space');
    await sheet.waitFor();
    await tabTo(page, testId('confirm-submit'), { back: true, limit: 10 });
    await page.keyboard.press('Enter');
    await page.getByText(en.wallet.transferDone).waitFor();
    await sheet.waitFor({ state: 'detached' });
    expect(await focusedTestId(page)).toBe('transfer-submit');
    const moved = await client.call<User>('GET', '/user/getUserInfo.do', session.token);
    expect(balance(moved, from)).toBeCloseTo(balance(before, from) - 300, 2);
    expect(balance(moved, to)).toBeCloseTo(balance(before, to) + 300, 2);

    // Withdraw: amount and password typed, Enter in the password field submits.
    await page.goto(`${url}/withdraw`);
    await page.getByTestId('withdrawable').waitFor();
    await tabTo(page, 'input[name="amount"]');
    await page.keyboard.type('500');
    await tabTo(page, 'input[name="password"]');
    await page.keyboard.type(WITHDRAW_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/cashWithdrawalRecord');
    const row = page.getByTestId('withdraw-row').first();
    await row.waitFor();
    expect(await row.getByTestId('withdraw-status').getAttribute('data-status')).toBe('pending');
    const listed = await client.call<{ list: Withdrawal[] }>('GET', '/user/withdraw/list.do', session.token);
    expect(listed.list.map((w) => [w.amount, w.status])).toEqual([[500, 'pending']]);

    // Its cancel sheet: opened with Enter, the focus inside it and kept there, back on its opener on Escape;
    // then a reason typed and confirmed.
    await tabTo(page, testId('withdraw-cancel'));
    await page.keyboard.press('Enter');
    const cancelSheet = page.getByTestId('cancel-sheet');
    await cancelSheet.waitFor();
    expect(await focusInside(page, 'cancel-sheet')).toBe(true);
    await focusStaysIn(page, 'cancel-sheet');
    await page.keyboard.press('Escape');
    await cancelSheet.waitFor({ state: 'detached' });
    expect(await focusedTestId(page)).toBe('withdraw-cancel');
    await page.keyboard.press('Enter');
    await cancelSheet.waitFor();
    await tabTo(page, 'textarea[name="reason"]', { limit: 10 });
    await page.keyboard.type('Changed my mind');
    await tabTo(page, testId('cancel-confirm'), { limit: 10 });
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="withdraw-status"][data-status="cancelled"]').waitFor();
    expect(await page.getByTestId('cancel-reason').first().textContent()).toContain('Changed my mind');
    expect(errors).toEqual([]);
    await close();
  });
});

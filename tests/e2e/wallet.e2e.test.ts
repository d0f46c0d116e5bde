/**
 * The account side end to end, in Chromium at 390×844 against a real station with a pinned
 * clock: register → KYC with two photos → the rule reviewer passes it → bank card → withdrawal password →
 * deposit (the station confirms it) → transfer main→index → exchange CNY→HKD → withdraw → cancel with a
 * reason; the records and the fund flow show each entry and add up; messages arrive with an unread badge;
 * invalid input shows the spec's message and sends nothing; the station's refusals show translated. The
 * first KYC submission is refused by the operator with a reason, which the user reads before resubmitting.
 * The whole journey runs in English and in Vietnamese.
 */
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import { FixedClock } from '../../server/market/clock';
import { idCardCheckChar } from '../../src/shared/validation';
import en from '../../locales/en';
import vi from '../../locales/vi';
import { decideKycByOperator } from '../../server/identity/kyc';
import { newPhoneContext, watchPageErrors } from './harness';
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

/** Counts the requests to a path, so a test can show that invalid input sent nothing. */
/**
 * Taps "refresh status" until the decision shows. The screen may learn it first by itself (the user is read
 * again when the page regains focus or its answer goes stale), and the button then leaves the page mid-tap.
 */
async function refreshUntilDecided(page: Page, decided: Locator): Promise<void> {
  await expect
    .poll(
      async () => {
        if (await decided.isVisible()) return true;
        await page
          .getByTestId('kyc-refresh')
          .click({ timeout: 2_000 })
          .catch(() => undefined);
        return decided.isVisible();
      },
      { timeout: 20_000 },
    )
    .toBe(true);
}

function countRequests(page: Page, path: string): { count: () => number } {
  let n = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path) n += 1;
  });
  return { count: () => n };
}

async function fieldError(page: Page, name: string): Promise<string> {
  return (await page.getByTestId(`error-${name}`).textContent()) ?? '';
}

/** A real PNG made by the browser's own canvas, as a camera or a file picker would hand it over. */
async function photo(
  page: Page,
  colour: string,
): Promise<{ name: string; mimeType: string; buffer: Buffer }> {
  const dataUrl = await page.evaluate((fill) => {
    const canvas = document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 400;
    const context = canvas.getContext('2d')!;
    context.fillStyle = fill;
    context.fillRect(0, 0, 640, 400);
    context.fillStyle = '#000';
    context.fillRect(40, 40, 200, 120);
    return canvas.toDataURL('image/png');
  }, colour);
  return {
    name: `${colour}.png`,
    mimeType: 'image/png',
    buffer: Buffer.from(dataUrl.split(',')[1]!, 'base64'),
  };
}

/** An amount as the app writes it in the language: 100.00 in English, 100,00 in Vietnamese. */
function money(lang: string, amount: number): string {
  return new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount);
}

/** The user's own words of the operator's refusal: shown to the user as written. */
const REFUSAL = 'The back photo is blurred';

const JOURNEYS = [
  { lang: 'en', L: en, phone: '13911112222', first17: '11010519900307123' },
  { lang: 'vi', L: vi, phone: '13911113333', first17: '11010519850512456' },
] as const;

describe.each(JOURNEYS)(
  'account and wallet screens in the browser ($lang)',
  ({ lang, L, phone, first17 }) => {
    it('registers, passes KYC on a resubmission, binds a card, deposits, transfers, exchanges, withdraws and cancels', async () => {
      const context = await newPhoneContext(e2e.browser);
      const page = await context.newPage();
      const errors = watchPageErrors(page);
      const reg = countRequests(page, '/api/user/reg.do');
      const password = 'paper123';

      // Registration: each invalid field shows the spec's message and nothing is sent.
      await page.goto(`${url}/register?lang=${lang}`);
      await page.getByTestId('register-submit').click();
      expect(await fieldError(page, 'phone')).toBe(L.validation.phoneEmpty);
      expect(await fieldError(page, 'password')).toBe(L.validation.passwordEmpty);
      expect(await fieldError(page, 'agree')).toBe(L.acct.agreeRequired);
      await page.locator('input[name="phone"]').fill('1391111');
      await page.locator('input[name="password"]').fill(password);
      await page.locator('input[name="confirm"]').fill('different1');
      await page.getByTestId('register-submit').click();
      expect(await fieldError(page, 'phone')).toBe(L.validation.phoneInvalid);
      expect(await fieldError(page, 'confirm')).toBe(L.validation.passwordsDiffer);
      expect(reg.count()).toBe(0);
      await page.locator('input[name="phone"]').fill(phone);
      await page.locator('input[name="confirm"]').fill(password);
      await page.getByTestId('send-code').click();
      await page.getByTestId('demo-code').waitFor();
      await expect.poll(() => page.locator('input[name="code"]').inputValue()).toMatch(/^\d{6}$/);
      // The 60 s countdown starts on the button.
      expect(await page.getByTestId('send-code').isDisabled()).toBe(true);
      await page.getByTestId('agree').check();
      await page.getByTestId('register-submit').click();
      await page.waitForURL('**/user');
      expect(reg.count()).toBe(1);
      await page.getByTestId('account-main').waitFor();
      await page.getByTestId('total-assets').waitFor();
      await page.getByTestId('risk-lines-note').waitFor();

      // A withdrawal first needs KYC, a bank card and a withdrawal password: the screen leads to each.
      await page.goto(`${url}/withdraw`);
      const needs = page.getByTestId('withdraw-prerequisites');
      await needs.waitFor();
      expect(await needs.getAttribute('data-missing')).toBe('kyc bankCard withdrawPassword');
      await page.getByTestId('needs-kyc').click();
      await page.waitForURL('**/authentication');

      // KYC: the spec's messages before anything is sent, then two photos compressed and uploaded.
      const auth = countRequests(page, '/user/auth.do');
      await page.getByTestId('kyc-submit').click();
      expect(await fieldError(page, 'realName')).toBe(L.validation.nameInvalid);
      expect(await fieldError(page, 'idNumber')).toBe(L.validation.idCardInvalid);
      expect(await fieldError(page, 'frontImage')).toBe(L.identity.photoRequired);
      const check = idCardCheckChar(first17);
      const wrong = check === '0' ? '1' : '0';
      await page.locator('input[name="realName"]').fill('张三');
      await page.locator('input[name="idNumber"]').fill(first17 + wrong);
      await page.getByTestId('kyc-submit').click();
      expect(await fieldError(page, 'idNumber')).toBe(L.validation.idCardCheckDigit);
      expect(auth.count()).toBe(0);
      await page.locator('input[name="idNumber"]').fill(first17 + check);
      const uploads: number[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/user/kyc/upload.do')) {
          expect(request.headers()['content-type']).toBe('image/jpeg');
          uploads.push(request.postDataBuffer()?.length ?? 0);
        }
      });
      await page.getByTestId('photo-front').setInputFiles(await photo(page, '#3a7bd5'));
      await page.getByTestId('uploaded-front').waitFor();
      await page.getByTestId('photo-back').setInputFiles(await photo(page, '#d5a03a'));
      await page.getByTestId('uploaded-back').waitFor();
      expect(uploads.length).toBe(2);
      await page.getByTestId('kyc-submit').click();
      await page.locator('[data-testid="kyc-status"][data-status="pending"]').waitFor();

      // The operator refuses it with a reason: the user reads it and resubmits with new photos.
      const userId = (
        await app.db.selectFrom('users').select('id').where('phone', '=', phone).executeTakeFirstOrThrow()
      ).id;
      await decideKycByOperator(
        app.station,
        userId,
        { pass: false, reason: REFUSAL },
        'e2e',
        'blurred photo',
      );
      await refreshUntilDecided(page, page.getByTestId('kyc-failed'));
      expect(await page.getByTestId('kyc-fail-reason').textContent()).toBe(REFUSAL);
      await page.locator('input[name="realName"]').fill('张三');
      await page.locator('input[name="idNumber"]').fill(first17 + check);
      await page.getByTestId('photo-front').setInputFiles(await photo(page, '#3a7bd5'));
      await page.getByTestId('uploaded-front').waitFor();
      await page.getByTestId('photo-back').setInputFiles(await photo(page, '#5ad53a'));
      await page.getByTestId('uploaded-back').waitFor();
      expect(uploads.length).toBe(4);
      await page.getByTestId('kyc-submit').click();
      await page.locator('[data-testid="kyc-status"][data-status="pending"]').waitFor();
      await letTheStationDecide();
      await refreshUntilDecided(page, page.locator('[data-testid="kyc-status"][data-status="passed"]'));

      // Bank card: required fields and the card-number rule, then the one card; a change is refused.
      await page.goto(`${url}/addCard`);
      await page.locator('input[name="cardNo"]').fill('0123');
      await page.getByTestId('card-submit').click();
      expect(await fieldError(page, 'bankName')).toBe(L.validation.required);
      expect(await fieldError(page, 'cardNo')).toBe(L.validation.bankCardInvalid);
      await page.locator('input[name="bankName"]').fill('Paper Bank');
      await page.locator('input[name="branch"]').fill('Main Street');
      await page.locator('input[name="cardNo"]').fill('6222021234567890123');
      await page.getByTestId('card-submit').click();
      await page.waitForURL('**/bankCard');
      expect(await page.getByTestId('card-no').textContent()).toContain('0123');
      await page.goto(`${url}/bankUpDate`);
      await page.locator('input[name="bankName"]').fill('Other Bank');
      await page.locator('input[name="branch"]').fill('North');
      await page.locator('input[name="cardNo"]').fill('6222029876543210987');
      await page.getByTestId('card-submit').click();
      expect(await page.getByTestId('form-error').textContent()).toBe(L.errors.BANK_CHANGE_NOT_ALLOWED);

      // Withdrawal password: 6 digits, typed twice alike.
      await page.goto(`${url}/setPassword`);
      await page.locator('input[name="password"]').fill('12ab');
      await page.locator('input[name="confirm"]').fill('12ab');
      await page.getByTestId('password-submit').click();
      expect(await fieldError(page, 'password')).toBe(L.validation.withdrawPasswordInvalid);
      await page.locator('input[name="password"]').fill('135790');
      await page.locator('input[name="confirm"]').fill('135799');
      await page.getByTestId('password-submit').click();
      expect(await fieldError(page, 'confirm')).toBe(L.validation.newPasswordInconsistent);
      await page.locator('input[name="confirm"]').fill('135790');
      await page.getByTestId('password-submit').click();
      await page.waitForURL('**/withdraw');

      // Deposit: below the minimum is refused here; then channel, amount, confirm, order and its status.
      await page.goto(`${url}/recharge`);
      await page.locator('[data-testid^="channel-"]').first().waitFor();
      await page.locator('input[name="amount"]').fill('50');
      await page.getByTestId('recharge-next').click();
      expect(await fieldError(page, 'amount')).toBe(
        L.wallet.belowMinDeposit.replace('{min}', money(lang, 100)),
      );
      await page.locator('input[name="amount"]').fill('2000');
      await page.getByTestId('recharge-next').click();
      await page.waitForURL('**/rechargeSure**');
      await page.getByTestId('recharge-confirm').click();
      await page.waitForURL('**/zf**');
      expect(await page.getByTestId('order-no').textContent()).toMatch(/\w{6,}/);
      expect(await page.getByTestId('recharge-status').getAttribute('data-status')).toBe('pending');
      await letTheStationDecide();
      await page
        .locator('[data-testid="recharge-status"][data-status="success"]')
        .waitFor({ timeout: 15_000 });
      await page.goto(`${url}/rechargelist`);
      await page.getByTestId('recharge-row').first().waitFor();
      expect(await page.getByTestId('recharge-row').count()).toBe(1);

      // Transfer main → index.
      await page.goto(`${url}/transfer`);
      await page.getByTestId('transfer-from').selectOption('main');
      await page.getByTestId('transfer-to').selectOption('index');
      await page.locator('input[name="amount"]').fill('1000');
      await page.getByTestId('transfer-submit').click();
      await page.getByTestId('transfer-sheet').getByTestId('confirm-submit').click();
      await page.getByText(L.wallet.transferDone).waitFor();
      await page.goto(`${url}/transferRecord`);
      await page.getByTestId('transfer-row').first().waitFor();
      expect(await page.getByTestId('transfer-row').count()).toBe(1);
      // The receiving account is read from the note's key and parameters, named in the reader's language.
      expect(await page.getByTestId('transfer-row').first().textContent()).toContain(
        `${L.user.accountType.main} → ${L.user.accountType.index}`,
      );

      // Exchange CNY → HKD: the spread is shown before confirming.
      await page.goto(`${url}/exchange`);
      await page.getByTestId('spread-rate').waitFor();
      await page.locator('input[name="amount"]').fill('1000');
      await page.getByTestId('exchange-review').click();
      await page.getByTestId('confirm-spread').waitFor();
      expect(await page.getByTestId('confirm-spread').textContent()).toMatch(/%$/);
      await page.getByTestId('exchange-confirm').click();
      await page.getByTestId('exchange-confirm-sheet').waitFor({ state: 'detached' });
      await page.goto(`${url}/exchangeLog`);
      await page.getByTestId('exchange-row').first().waitFor();
      expect(await page.getByTestId('exchange-row').count()).toBe(1);

      // Withdraw: the spec's minimum here, the station's refusal of a wrong password translated, then a request.
      await page.goto(`${url}/withdraw`);
      await page.getByTestId('withdrawable').waitFor();
      await page.locator('input[name="amount"]').fill('50');
      await page.locator('input[name="password"]').fill('135790');
      await page.getByTestId('withdraw-submit').click();
      expect(await fieldError(page, 'amount')).toBe(
        L.wallet.belowMinWithdraw.replace('{min}', money(lang, 100)),
      );
      await page.locator('input[name="amount"]').fill('500');
      await page.locator('input[name="password"]').fill('000000');
      await page.getByTestId('withdraw-submit').click();
      await page.getByTestId('error-password').waitFor();
      expect(await fieldError(page, 'password')).toBe(L.errors.BAD_WITHDRAW_PASSWORD);
      await page.locator('input[name="password"]').fill('135790');
      await page.getByTestId('withdraw-submit').click();
      await page.waitForURL('**/cashWithdrawalRecord');
      const row = page.getByTestId('withdraw-row').first();
      expect(await row.getByTestId('withdraw-status').getAttribute('data-status')).toBe('pending');

      // Cancel it with a reason (an empty reason is refused here).
      await row.getByTestId('withdraw-cancel').click();
      await page.getByTestId('cancel-confirm').click();
      expect(await fieldError(page, 'reason')).toBe(L.wallet.cancelReasonEmpty);
      await page.locator('textarea[name="reason"]').fill('Changed my mind');
      await page.getByTestId('cancel-confirm').click();
      await page.locator('[data-testid="withdraw-status"][data-status="cancelled"]').waitFor();
      expect(await page.getByTestId('cancel-reason').first().textContent()).toBe('Changed my mind');

      // The fund flow shows every entry of the main account and they add up to its balance.
      const readAmounts = () =>
        page
          .locator('[data-testid="ledger-entry"][data-account="main"]')
          .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-amount'))));
      // Either screen may first show what the service worker stored, then the station's answer.
      let mainBalance = NaN;
      await expect
        .poll(
          async () => {
            await page.goto(`${url}/user`);
            mainBalance = Number(await page.getByTestId('account-main-balance').getAttribute('data-value'));
            await page.goto(`${url}/FundingDetails`);
            await page.getByTestId('ledger-entry').first().waitFor();
            return Math.round((await readAmounts()).reduce((x, y) => x + y, 0) * 100) / 100 - mainBalance;
          },
          { timeout: 20_000, interval: 500 },
        )
        .toBe(0);
      const mainAmounts = await readAmounts();
      // opening, deposit, transfer out, exchange out, withdraw (+ fee when charged), refund
      expect(mainAmounts.length).toBeGreaterThanOrEqual(6);
      await page.getByTestId('filter-type').selectOption('deposit');
      await expect
        .poll(() =>
          page
            .getByTestId('ledger-entry')
            .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-amount'))),
        )
        .toEqual(['2000']);

      // Messages: the KYC and deposit decisions arrived; the badge shows, reading clears it.
      await page.goto(`${url}/user`);
      await page.getByTestId('unread-badge').waitFor();
      await page.getByTestId('link-notify').click();
      await page.waitForURL('**/notify');
      await page.getByTestId('message-row').first().waitFor();
      expect(await page.getByTestId('message-row').count()).toBeGreaterThanOrEqual(2);
      await page.getByTestId('message-row').first().locator('a').click();
      await page.getByTestId('message-detail').waitFor();
      await page.goto(`${url}/notify`);
      await page.getByTestId('mark-all-read').click();
      await expect
        .poll(() => page.getByTestId('unread-count').textContent())
        .toBe(L.acct.unreadCount.replace('{count}', '0'));
      await page.goto(`${url}/user`);
      await page.getByTestId('account-main').waitFor();
      await page.waitForTimeout(300);
      expect(await page.getByTestId('unread-badge').count()).toBe(0);

      // The other account screens open with their content and no error.
      for (const path of ['/wallet', '/btc', '/setting', '/openaccount', '/forget', '/account']) {
        await page.goto(`${url}${path}`);
        await page.waitForLoadState('networkidle');
        await page.locator('main#main > *').first().waitFor();
        expect(await page.getByTestId('error').count(), path).toBe(0);
      }
      expect(errors).toEqual([]);
      await context.close();
    });
  },
);

describe('an invitation-only station in the browser', () => {
  it('marks the invitation code required, says so when it is empty and sends nothing', async () => {
    // The station's INVITE_CODE setting, now "required", and a first account (which needs no code) exists.
    const sms = await fetch(`${url}/api/sms/sendRegSms.do`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '13911115555' }),
    });
    const { data: sent } = (await sms.json()) as { data: { demoCode: string } };
    await fetch(`${url}/api/user/reg.do`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '13911115555', password: 'paper123', code: sent.demoCode }),
    });
    const before = app.config.identity.inviteCode;
    app.config.identity.inviteCode = 'required';
    const context = await newPhoneContext(e2e.browser);
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    const reg = countRequests(page, '/api/user/reg.do');
    try {
      await page.goto(`${url}/register?lang=en`);
      await expect.poll(() => page.getByText(en.auth.inviteCodeRequired, { exact: true }).count()).toBe(1);
      await page.locator('input[name="phone"]').fill('13911114444');
      await page.locator('input[name="password"]').fill('paper123');
      await page.locator('input[name="confirm"]').fill('paper123');
      await page.getByTestId('send-code').click();
      await expect.poll(() => page.locator('input[name="code"]').inputValue()).toMatch(/^\d{6}$/);
      await page.getByTestId('agree').check();
      await page.getByTestId('register-submit').click();
      expect(await fieldError(page, 'inviteCode')).toBe(en.validation.inviteCodeEmpty);
      expect(reg.count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      app.config.identity.inviteCode = before;
      await context.close();
    }
  });
});

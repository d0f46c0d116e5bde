/**
 * Withdrawals over HTTP: KYC, bank card and withdrawal password, ¥100 to ¥1,000,000, the fee,
 * the amount frozen at once, pending → paid | rejected (the bank's answer or the operator) or cancelled by
 * the user with a reason, "withdrawal failed, withdraw again or contact the administrator", T+1 sale
 * proceeds, withdraw/list.do, and the withdrawal hours on trading days at their limits (CLOCK_MODE=real).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  LedgerEntry,
  Page,
  Position,
  UserMessagePage,
  Withdrawal,
  WithdrawInfo,
} from '../../src/shared/api/types';
import { setSiteSetting, SITE_SETTING_DEFAULTS } from '../../server/content/site-settings';
import { decideWithdrawalByOperator } from '../../server/wallet/withdrawal';
import { runOperatorCommand } from '../../server/cli/commands';
import { FixedClock } from '../../server/market/clock';
import { passKyc } from './helpers/identity';
import {
  T0,
  api,
  data,
  dbTargets,
  failure,
  newRequestId,
  register,
  startStation,
  type ApiClient,
  type TestStation,
} from './helpers/station';
import { accountOf, afterReview, readyToWithdraw, walletCounts, WITHDRAW_PASSWORD } from './helpers/wallet';

type Station = TestStation<FixedClock>;
const START = 1_000_000_00;
const DAY = 86_400_000;

const withdraw = (client: ApiClient, amount: number | string, extra: Record<string, unknown> = {}) =>
  client.post<Withdrawal>('/user/withdraw/outMoney.do', {
    amount,
    withdrawPassword: WITHDRAW_PASSWORD,
    requestId: newRequestId(),
    ...extra,
  });

describe.each(dbTargets)('withdrawals (%s)', (db) => {
  let station: Station;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('needs KYC, then a bank card, then a withdrawal password, then the right password; refusals write nothing', async () => {
    const user = await register(client);
    const before = await walletCounts(station);
    expect(failure(await withdraw(user.client, 200))).toMatchObject({ code: 'KYC_REQUIRED', status: 403 });
    await passKyc(station, user, '赵六');
    const afterKyc = await walletCounts(station);
    expect(failure(await withdraw(user.client, 200))).toMatchObject({
      code: 'BANK_CARD_REQUIRED',
      status: 403,
    });
    data(
      await user.client.post('/user/bank/add.do', {
        bankName: '建设银行',
        branch: '上海分行',
        cardNo: '6217001234567890123',
      }),
    );
    expect(failure(await withdraw(user.client, 200))).toMatchObject({
      code: 'WITHDRAW_PASSWORD_REQUIRED',
      status: 403,
    });
    data(await user.client.post('/user/insertWithPwd.do', { withPwd: WITHDRAW_PASSWORD }));
    const wrong = failure(await withdraw(user.client.withLang('zh-CN'), 200, { withdrawPassword: '000000' }));
    expect(wrong).toMatchObject({ code: 'BAD_WITHDRAW_PASSWORD', msg: '资金密码错误' });
    expect(before.ledger).toBe(afterKyc.ledger);
    const now = await walletCounts(station);
    expect([now.withdrawals, now.ledger, now.idempotency]).toEqual([
      before.withdrawals,
      before.ledger,
      before.idempotency,
    ]);
    expect((await accountOf(station, user.user.id)).balance).toBe(START);
  });

  it('refuses below ¥100, above ¥1,000,000, bad amounts, above the balance; writes nothing', async () => {
    const user = await readyToWithdraw(station, client);
    const before = await walletCounts(station);
    const below = failure(await withdraw(user.client.withLang('zh-CN'), 99.99));
    expect(below).toMatchObject({ code: 'BELOW_MINIMUM', msg: '低于最低提现金额100.00' });
    expect(failure(await withdraw(user.client, 1_000_000.01))).toMatchObject({ code: 'ABOVE_MAXIMUM' });
    for (const amount of ['', 'x', '-100', '100.005']) {
      expect(failure(await withdraw(user.client, amount)).code, amount).toBe('VALIDATION');
    }
    // Spend some, then ask for more than is left.
    data(await withdraw(user.client, 600_000));
    const mid = await walletCounts(station);
    const over = failure(await withdraw(user.client.withLang('en'), 400_000.01));
    expect(over).toMatchObject({ code: 'INSUFFICIENT_FUNDS', status: 409 });
    expect(over.msg).toContain('400,000.00 can be withdrawn now');
    expect(await walletCounts(station)).toEqual(mid);
    expect(mid.withdrawals).toBe(before.withdrawals + 1);
  });

  it('freezes the amount at once, charges the fee, pays after the review delay and tells the user', async () => {
    await setSiteSetting(
      station.app.station,
      'setting',
      { ...SITE_SETTING_DEFAULTS.setting, withdrawFeeRate: 0.001 },
      'tester',
      'fee test',
    );
    try {
      const user = await readyToWithdraw(station, client);
      const w = data(await withdraw(user.client, 10_000));
      expect(w).toMatchObject({
        amount: 10_000,
        fee: 10,
        status: 'pending',
        bankName: '工商银行',
        cardNoMasked: '6222 **** **** 6543',
        payeeName: '王五',
        cancelReason: null,
        rejectReason: null,
      });
      expect(w.orderNo).toMatch(/^W\d{20}$/);
      expect((await accountOf(station, user.user.id)).balance).toBe(START - 1_000_000);
      const info = data(await user.client.get<WithdrawInfo>('/user/withdraw/info.do'));
      expect(info).toMatchObject({ withdrawable: 990_000, available: 990_000, unsettled: 0, feeRate: 0.001 });
      const flow = data(await user.client.get<Page<LedgerEntry>>('/user/cash/list.do', { account: 'main' }));
      expect(flow.list.slice(0, 2).map((e) => [e.type, e.amount])).toEqual([
        ['withdraw_fee', -10],
        ['withdraw', -9_990],
      ]);
      await afterReview(station);
      const [paid] = data(await user.client.get<Page<Withdrawal>>('/user/withdraw/list.do')).list;
      expect(paid).toMatchObject({ id: w.id, status: 'paid', decidedAt: station.clock.now() });
      expect((await accountOf(station, user.user.id)).balance).toBe(START - 1_000_000);
      const messages = data(
        await user.client.withLang('en').get<UserMessagePage>('/user/cash/getMessagelist.do'),
      );
      expect(messages.list[0]).toMatchObject({ kind: 'withdrawal', title: 'Withdrawal paid', refId: w.id });
      expect(messages.list[0]!.content).toContain('9,990.00 sent to your card');
      // Paid is final: no cancel.
      const late = failure(
        await user.client.post('/user/withdraw/cancel.do', { id: w.id, reason: 'changed my mind' }),
      );
      expect(late).toMatchObject({ code: 'ALREADY_DONE' });
    } finally {
      await setSiteSetting(station.app.station, 'setting', SITE_SETTING_DEFAULTS.setting, 'tester', 'reset');
    }
    await station.assertLedger();
  });

  it('a rejected withdrawal gives the amount back and says "withdrawal failed, withdraw again or contact the administrator"', async () => {
    const user = await readyToWithdraw(station, client);
    const w = data(await withdraw(user.client, 2_000.13));
    expect((await accountOf(station, user.user.id)).balance).toBe(START - 200_013);
    await afterReview(station);
    expect((await accountOf(station, user.user.id)).balance).toBe(START);
    const [row] = data(
      await user.client.withLang('zh-CN').get<Page<Withdrawal>>('/user/withdraw/list.do'),
    ).list;
    expect(row).toMatchObject({ id: w.id, status: 'rejected', rejectReason: '银行退回了本次转账' });
    const zh = data(await user.client.withLang('zh-CN').get<UserMessagePage>('/user/cash/getMessagelist.do'));
    expect(zh.list[0]!.title).toBe('提现失败');
    expect(zh.list[0]!.content).toContain('提现失败，请重新提现或联系管理员');
    expect(zh.list[0]!.content).toContain('银行退回了本次转账');
    const en = data(await user.client.withLang('en').get<UserMessagePage>('/user/cash/getMessagelist.do'));
    expect(en.list[0]!.content).toContain(
      'Withdrawal failed, please withdraw again or contact the administrator',
    );
    const flow = data(
      await user.client.get<Page<LedgerEntry>>('/user/cash/list.do', { type: 'withdraw_refund' }),
    );
    expect(flow.list).toMatchObject([{ type: 'withdraw_refund', amount: 2_000.13, refId: w.id }]);
    await station.assertLedger();
  });

  it('the user cancels a pending withdrawal with a reason; the station then leaves it alone', async () => {
    const user = await readyToWithdraw(station, client);
    const w = data(await withdraw(user.client, 3_000));
    const other = await readyToWithdraw(station, client);
    expect(
      failure(await other.client.post('/user/withdraw/cancel.do', { id: w.id, reason: 'not mine' })).code,
    ).toBe('NOT_FOUND');
    expect(failure(await user.client.post('/user/withdraw/cancel.do', { id: w.id, reason: '  ' })).code).toBe(
      'VALIDATION',
    );
    const cancelled = data(
      await user.client.post<Withdrawal>('/user/withdraw/cancel.do', { id: w.id, reason: '填错金额' }),
    );
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelReason: '填错金额' });
    expect((await accountOf(station, user.user.id)).balance).toBe(START);
    expect(
      failure(await user.client.post('/user/withdraw/cancel.do', { id: w.id, reason: 'again' })).code,
    ).toBe('ALREADY_DONE');
    await afterReview(station);
    expect((await accountOf(station, user.user.id)).balance).toBe(START);
    const list = data(
      await user.client.get<Page<Withdrawal>>('/user/withdraw/list.do', { status: 'cancelled' }),
    );
    expect(list.list.map((x) => x.id)).toEqual([w.id]);
    await station.assertLedger();
  });

  it('the operator pays or rejects with a reason (audited)', async () => {
    const user = await readyToWithdraw(station, client);
    const a = data(await withdraw(user.client, 1_000));
    const b = data(await withdraw(user.client, 2_000));
    const lines: string[] = [];
    await runOperatorCommand(
      station.app.station,
      'withdrawal',
      [String(a.id), 'reject', '--reason', '银行卡信息有误'],
      (l) => lines.push(l),
      'tester',
    );
    await decideWithdrawalByOperator(station.app.station, b.id, { status: 'paid' }, 'tester', 'paid by hand');
    expect(lines).toEqual([`withdrawal: #${a.id} ${a.orderNo} rejected (audited)`]);
    const list = data(await user.client.get<Page<Withdrawal>>('/user/withdraw/list.do')).list;
    expect(list.map((x) => [x.id, x.status, x.rejectReason])).toEqual([
      [b.id, 'paid', null],
      [a.id, 'rejected', '银行卡信息有误'],
    ]);
    expect((await accountOf(station, user.user.id)).balance).toBe(START - 200_000);
    await station.assertLedger();
  });

  it("keeps today's sale proceeds from being withdrawn until the next trading day (T+1)", async () => {
    const user = await readyToWithdraw(station, client);
    // Bought yesterday (A-shares sell from the next trading day), sold today.
    const yesterday = station.clock.now() - DAY;
    const today = station.clock.now();
    station.clock.set(yesterday);
    const position = data(
      await user.client.post<Position>('/user/buy.do', {
        code: '600036',
        lots: 10,
        leverage: 1,
        requestId: newRequestId(),
      }),
    );
    station.clock.set(today);
    data(await user.client.post('/user/sell.do', { positionId: position.id, requestId: newRequestId() }));
    const main = await accountOf(station, user.user.id);
    const sells = await station.app.db
      .selectFrom('ledger_entries')
      .select('amount')
      .where('user_id', '=', user.user.id)
      .where('type', '=', 'sell')
      .execute();
    const proceeds = sells.reduce((s, r) => s + Number(r.amount), 0);
    expect(proceeds).toBeGreaterThan(0);
    const info = data(await user.client.get<WithdrawInfo>('/user/withdraw/info.do'));
    expect(info.unsettled * 100).toBeCloseTo(proceeds, 6);
    expect(Math.round(info.withdrawable * 100)).toBe(main.balance - proceeds);
    expect(info.available * 100).toBeCloseTo(main.balance, 6);
    const tooMuch = failure(await withdraw(user.client, (main.balance - proceeds + 1) / 100));
    expect(tooMuch.code).toBe('INSUFFICIENT_FUNDS');
    // Next trading day (always-open: the next UTC day).
    station.clock.set(Math.floor(today / DAY) * DAY + DAY + 2 * 3_600_000);
    const next = data(await user.client.get<WithdrawInfo>('/user/withdraw/info.do'));
    expect(next).toMatchObject({ unsettled: 0 });
    expect(Math.round(next.withdrawable * 100)).toBe(main.balance);
    data(await withdraw(user.client, (main.balance - proceeds + 1) / 100));
    await station.assertLedger();
  });
});

describe.each(dbTargets)('withdrawal hours, CLOCK_MODE=real (%s)', (db) => {
  let station: Station;
  let client: ApiClient;
  // Shanghai is UTC+8; 2025-03-12 is a Wednesday and a trading day.
  const at = (day: number, hh: number, mm: number, ss = 0) => Date.UTC(2025, 2, day, hh - 8, mm, ss);

  beforeAll(async () => {
    station = await startStation({ db, env: { CLOCK_MODE: 'real' }, clock: new FixedClock(T0) });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('takes withdrawals 09:30-15:30 on trading days only (start included, end excluded)', async () => {
    const user = await readyToWithdraw(station, client);
    const tryAt = async (t: number) => {
      station.clock.set(t);
      return withdraw(user.client.withLang('zh-CN'), 100);
    };
    const early = failure(await tryAt(at(12, 9, 29, 59)));
    expect(early).toMatchObject({ code: 'OUTSIDE_WITHDRAW_HOURS', status: 409 });
    expect(early.msg).toBe('提现失败，不在提现时间内（交易日09:30-15:30）');
    data(await tryAt(at(12, 9, 30)));
    data(await tryAt(at(12, 15, 29, 59)));
    expect(failure(await tryAt(at(12, 15, 30))).code).toBe('OUTSIDE_WITHDRAW_HOURS');
    // Saturday 2025-03-15 at 10:00: not a trading day.
    expect(failure(await tryAt(at(15, 10, 0))).code).toBe('OUTSIDE_WITHDRAW_HOURS');
    station.clock.set(at(15, 10, 0));
    expect(data(await user.client.get<WithdrawInfo>('/user/withdraw/info.do')).open).toBe(false);
    expect(data(await user.client.get<Page<Withdrawal>>('/user/withdraw/list.do')).total).toBe(2);
  });
});

/**
 * Deposits over HTTP: the simulated channels of getPayInfo.do with their limits, the minimum
 * ("less than the minimum deposit amount"), deposit hours at their limits (CLOCK_MODE=real, pinned clock),
 * pending → success | failed | cancelled after REVIEW_DELAY_S (the engine's step) or by the operator,
 * the ledger credited only on success and exactly once, the messages, recharge/list.do, idempotency.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Recharge, Page, UserMessagePage, LedgerEntry } from '../../src/shared/api/types';
import { decideDepositByOperator } from '../../server/wallet/deposit';
import { reviewDueWalletRequests } from '../../server/wallet/wallet-review';
import { runOperatorCommand } from '../../server/cli/commands';
import { FixedClock } from '../../server/market/clock';
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
import { accountOf, afterReview, entriesSum, walletCounts } from './helpers/wallet';

type Station = TestStation<FixedClock>;
const START = 1_000_000_00;

describe.each(dbTargets)('deposits (%s)', (db) => {
  let station: Station;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('lists the simulated channels with their limits', async () => {
    const channels = data(
      await client.get<{ id: number; minAmount: number; maxAmount: number }[]>('/api/site/getPayInfo.do'),
    );
    expect(channels.map((c) => [c.id, c.minAmount, c.maxAmount])).toEqual([
      [1, 100, 1_000_000],
      [2, 100, 50_000],
    ]);
  });

  it('refuses less than ¥100 with the spec message, above the channel maximum, bad amounts and channels; writes nothing', async () => {
    const user = await register(client);
    const before = await walletCounts(station);
    const below = failure(
      await user.client
        .withLang('zh-CN')
        .post('/user/recharge/inMoney.do', { amount: 99.99, channelId: 1, requestId: newRequestId() }),
    );
    expect(below).toMatchObject({ code: 'BELOW_MINIMUM', status: 400, msg: '低于最低充值金额100.00' });
    const en = failure(
      await user.client
        .withLang('en')
        .post('/user/recharge/inMoney.do', { amount: 50, channelId: 1, requestId: newRequestId() }),
    );
    expect(en.msg).toBe('Less than the minimum deposit amount of 100.00');
    const above = failure(
      await user.client.post('/user/recharge/inMoney.do', {
        amount: 50_000.01,
        channelId: 2,
        requestId: newRequestId(),
      }),
    );
    expect(above).toMatchObject({ code: 'ABOVE_MAXIMUM' });
    for (const amount of ['abc', '-5', '0', '100.001', 'NaN', '1e400', '<b>1</b>']) {
      const bad = failure(
        await user.client.post('/user/recharge/inMoney.do', {
          amount,
          channelId: 1,
          requestId: newRequestId(),
        }),
      );
      expect(bad.code, amount).toBe('VALIDATION');
      expect(bad.fields?.amount, amount).toBeDefined();
    }
    const channel = failure(
      await user.client.post('/user/recharge/inMoney.do', {
        amount: 200,
        channelId: 9,
        requestId: newRequestId(),
      }),
    );
    expect(channel).toMatchObject({ code: 'VALIDATION', fields: { channelId: expect.any(String) } });
    expect(await walletCounts(station)).toEqual(before);
  });

  it('credits a deposit once, only on success, after the review delay; the user is told', async () => {
    const user = await register(client);
    const requestId = newRequestId();
    const recharge = data(
      await user.client.post<Recharge>('/user/recharge/inMoney.do', {
        amount: 1234.5,
        channelId: 1,
        requestId,
      }),
    );
    expect(recharge).toMatchObject({ amount: 1234.5, status: 'pending', channelId: 1, failReason: null });
    expect(recharge.orderNo).toMatch(/^D\d{20}$/);
    // The same requestId again: the same deposit, nothing new.
    const again = data(
      await user.client.post<Recharge>('/user/recharge/inMoney.do', {
        amount: 1234.5,
        channelId: 1,
        requestId,
      }),
    );
    expect(again).toEqual(recharge);
    expect((await accountOf(station, user.user.id)).balance).toBe(START);

    // Not yet due: the engine's step leaves it pending.
    station.clock.advance(station.config.reviewDelaySeconds * 1000 - 1);
    await station.app.engine.step();
    expect((await accountOf(station, user.user.id)).balance).toBe(START);

    station.clock.advance(1);
    await station.app.engine.step();
    await station.app.engine.step();
    expect(await reviewDueWalletRequests(station.app.station, station.clock.now())).toEqual({
      deposits: 0,
      withdrawals: 0,
    });
    expect((await accountOf(station, user.user.id)).balance).toBe(START + 123_450);
    expect(await entriesSum(station, user.user.id, ['deposit'])).toBe(123_450);

    const list = data(await user.client.get<Page<Recharge>>('/user/recharge/list.do'));
    expect(list.total).toBe(1);
    expect(list.list[0]).toMatchObject({
      id: recharge.id,
      status: 'success',
      decidedAt: station.clock.now(),
    });
    const flow = data(await user.client.get<Page<LedgerEntry>>('/user/cash/list.do', { type: 'deposit' }));
    expect(flow.list).toMatchObject([
      { type: 'deposit', amount: 1234.5, refType: 'recharge', refId: recharge.id },
    ]);
    const messages = data(
      await user.client.withLang('zh-CN').get<UserMessagePage>('/user/cash/getMessagelist.do'),
    );
    expect(messages.list[0]).toMatchObject({ kind: 'deposit', title: '充值成功', refId: recharge.id });
    expect(messages.list[0]!.content).toContain(recharge.orderNo);
    expect(messages.list[0]!.content).toContain('1,234.50');
    await station.assertLedger();
  });

  it('fails (.13) and cancels (.14) without a credit, with the translated reason', async () => {
    const user = await register(client);
    const failed = data(
      await user.client.post<Recharge>('/user/recharge/inMoney.do', {
        amount: 300.13,
        channelId: 2,
        requestId: newRequestId(),
      }),
    );
    const cancelled = data(
      await user.client.post<Recharge>('/user/recharge/inMoney.do', {
        amount: 300.14,
        channelId: 2,
        requestId: newRequestId(),
      }),
    );
    await afterReview(station);
    expect((await accountOf(station, user.user.id)).balance).toBe(START);
    const list = data(await user.client.withLang('en').get<Page<Recharge>>('/user/recharge/list.do'));
    expect(list.list.map((r) => [r.id, r.status, r.failReason])).toEqual([
      [cancelled.id, 'cancelled', 'The payment was not completed and the order was cancelled'],
      [failed.id, 'failed', 'The payment channel declined the payment'],
    ]);
    const onlyFailed = data(
      await user.client.get<Page<Recharge>>('/user/recharge/list.do', { status: 'failed' }),
    );
    expect(onlyFailed.list.map((r) => r.id)).toEqual([failed.id]);
    const messages = data(
      await user.client.withLang('en').get<UserMessagePage>('/user/cash/getMessagelist.do'),
    );
    expect(messages.list.map((m) => m.title)).toEqual(
      expect.arrayContaining(['Deposit failed', 'Deposit cancelled']),
    );
    expect(messages.list.find((m) => m.title === 'Deposit failed')!.content).toContain(
      'The payment channel declined the payment',
    );
    await station.assertLedger();
  });

  it('lets the operator decide first (audited); the station then leaves it alone', async () => {
    const user = await register(client);
    const a = data(
      await user.client.post<Recharge>('/user/recharge/inMoney.do', {
        amount: 500,
        channelId: 1,
        requestId: newRequestId(),
      }),
    );
    const b = data(
      await user.client.post<Recharge>('/user/recharge/inMoney.do', {
        amount: 600,
        channelId: 1,
        requestId: newRequestId(),
      }),
    );
    const lines: string[] = [];
    const print = (line: string) => lines.push(line);
    await expect(
      runOperatorCommand(station.app.station, 'deposit', [String(a.id), 'success'], print, 'tester'),
    ).rejects.toThrow(/--reason/);
    expect(
      await runOperatorCommand(
        station.app.station,
        'deposit',
        [String(a.id), 'fail', '--reason', '付款人信息不符'],
        print,
        'tester',
      ),
    ).toBe(true);
    await decideDepositByOperator(
      station.app.station,
      b.id,
      { status: 'success' },
      'tester',
      'checked by hand',
    );
    await expect(
      decideDepositByOperator(station.app.station, b.id, { status: 'success' }, 'tester', 'twice'),
    ).rejects.toMatchObject({ code: 'ALREADY_DONE' });
    await afterReview(station);
    expect((await accountOf(station, user.user.id)).balance).toBe(START + 60_000);
    const list = data(await user.client.get<Page<Recharge>>('/user/recharge/list.do'));
    expect(list.list.map((r) => [r.id, r.status, r.failReason])).toEqual([
      [b.id, 'success', null],
      [a.id, 'failed', '付款人信息不符'],
    ]);
    const audit = await station.app.station.db.selectFrom('audit_log').selectAll().execute();
    expect(JSON.stringify(audit)).toContain('deposit.failed');
    expect(JSON.stringify(audit)).toContain('deposit.success');
    lines.length = 0;
    await runOperatorCommand(
      station.app.station,
      'deposits',
      ['--user', String(user.user.id)],
      print,
      'tester',
    );
    expect(lines[0]).toBe('2 deposit(s)');
    await station.assertLedger();
  });
});

describe.each(dbTargets)('deposit hours, CLOCK_MODE=real (%s)', (db) => {
  let station: Station;
  let client: ApiClient;
  // 2025-03-12 (Wednesday) in Shanghai (UTC+8): 09:00 is 01:00 UTC, 23:00 is 15:00 UTC.
  const at = (hh: number, mm: number, ss = 0) => Date.UTC(2025, 2, 12, hh - 8, mm, ss);

  beforeAll(async () => {
    station = await startStation({ db, env: { CLOCK_MODE: 'real' }, clock: new FixedClock(T0) });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('takes deposits from 09:00 to 23:00 (end excluded), weekends too', async () => {
    const user = await register(client);
    const tryAt = async (t: number) => {
      station.clock.set(t);
      return user.client.withLang('en').post<Recharge>('/user/recharge/inMoney.do', {
        amount: 100,
        channelId: 1,
        requestId: newRequestId(),
      });
    };
    const early = failure(await tryAt(at(8, 59, 59)));
    expect(early).toMatchObject({ code: 'OUTSIDE_DEPOSIT_HOURS', status: 409 });
    expect(early.msg).toBe('Deposit failed: not within deposit hours (09:00-23:00)');
    data(await tryAt(at(9, 0)));
    data(await tryAt(at(22, 59, 59)));
    expect(failure(await tryAt(at(23, 0))).code).toBe('OUTSIDE_DEPOSIT_HOURS');
    // Saturday 2025-03-15, 10:00 in Shanghai.
    data(await tryAt(Date.UTC(2025, 2, 15, 2, 0)));
    expect(data(await user.client.get<Page<Recharge>>('/user/recharge/list.do')).total).toBe(3);
  });
});

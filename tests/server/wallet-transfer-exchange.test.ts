/**
 * Transfers between main, index and newstock (transAmt.do) and the currency flash exchange
 * (exchange/rate, findSpreadRateOne.do, exchange.do, exchangeLog.do), the fund flow's filters over every
 * new entry type, and the station's messages calls (getMessagelist.do, getUnreadCount.do, read marking)
 * with the KYC result messages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Account,
  ExchangeRates,
  ExchangeRecord,
  LedgerEntry,
  Order,
  Page,
  SpreadRate,
  TransferResult,
  UserMessagePage,
} from '../../src/shared/api/types';
import { formatMoney } from '../../src/shared/format';
import type { FixedClock } from '../../server/market/clock';
import { decideKycByOperator } from '../../server/identity/kyc';
import { freshIdNumber, JPEG, PNG, upload } from './helpers/identity';
import {
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
import { accountOf, readyToWithdraw, walletCounts, WITHDRAW_PASSWORD } from './helpers/wallet';

type Station = TestStation<FixedClock>;
const START = 1_000_000_00;

describe.each(dbTargets)('transfers (%s)', (db) => {
  let station: Station;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('moves cash instantly as two entries, once per requestId', async () => {
    const user = await register(client);
    const requestId = newRequestId();
    const body = { amount: 2_500.5, from: 'main', to: 'index', requestId };
    const result = data(await user.client.post<TransferResult>('/user/transAmt.do', body));
    expect(result.from).toMatchObject({ type: 'main', balance: 997_499.5 });
    expect(result.to).toMatchObject({ type: 'index', balance: 2_500.5, available: 2_500.5 });
    expect(data(await user.client.post<TransferResult>('/user/transAmt.do', body))).toEqual(result);
    data(
      await user.client.post('/user/transAmt.do', {
        amount: 500.5,
        from: 'index',
        to: 'newstock',
        requestId: newRequestId(),
      }),
    );
    expect((await accountOf(station, user.user.id, 'index')).balance).toBe(200_000);
    expect((await accountOf(station, user.user.id, 'newstock')).balance).toBe(50_050);
    const flow = data(await user.client.get<Page<LedgerEntry>>('/user/cash/list.do', { pageSize: 100 }));
    expect(flow.list.filter((e) => e.type === 'transfer_out').map((e) => [e.account, e.amount])).toEqual([
      ['index', -500.5],
      ['main', -2_500.5],
    ]);
    const onlyIn = data(
      await user.client.get<Page<LedgerEntry>>('/user/cash/list.do', { type: 'transfer_in' }),
    );
    expect(onlyIn.list.map((e) => [e.account, e.amount])).toEqual([
      ['newstock', 500.5],
      ['index', 2_500.5],
    ]);
    await station.assertLedger();
  });

  it('refuses more than is available (frozen by a limit order stays), the same account, other accounts; writes nothing', async () => {
    const user = await register(client);
    const market = station.app.market;
    const price = market.quote(market.get('600036'), station.clock.now()).price;
    data(
      await user.client.post<Order>('/user/addOrder.do', {
        code: '600036',
        lots: 100,
        leverage: 1,
        triggerPrice: Math.round(price * 95) / 100,
        requestId: newRequestId(),
      }),
    );
    const { frozen } = await accountOf(station, user.user.id);
    expect(frozen).toBeGreaterThan(0);
    const before = await walletCounts(station);
    const over = failure(
      await user.client.withLang('en').post('/user/transAmt.do', {
        amount: (START - frozen + 1) / 100,
        from: 'main',
        to: 'index',
        requestId: newRequestId(),
      }),
    );
    expect(over).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    expect(over.msg).toContain(`${formatMoney((START - frozen) / 100, 'en')} available`);
    for (const bad of [
      { from: 'main', to: 'main' },
      { from: 'main', to: 'hk' },
      { from: 'us', to: 'main' },
    ]) {
      const refused = failure(
        await user.client.post('/user/transAmt.do', { amount: 100, ...bad, requestId: newRequestId() }),
      );
      expect(refused.code, JSON.stringify(bad)).toBe('VALIDATION');
    }
    expect(await walletCounts(station)).toEqual(before);
    data(
      await user.client.post('/user/transAmt.do', {
        amount: (START - frozen) / 100,
        from: 'main',
        to: 'index',
        requestId: newRequestId(),
      }),
    );
    expect((await accountOf(station, user.user.id)).balance).toBe(frozen);
  });
});

describe.each(dbTargets)('currency flash exchange (%s)', (db) => {
  let station: Station;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('publishes the rate of a pair and the spread', async () => {
    const rates = data(
      await client.get<ExchangeRates>('/api/site/exchange/rate', { source: 'USD', target: 'HKD' }),
    );
    expect(rates.pair?.rate).toBeCloseTo(rates.cnyPer.USD / rates.cnyPer.HKD, 6);
    expect(data(await client.get<ExchangeRates>('/api/site/exchange/rate')).pair).toBeUndefined();
    expect(failure(await client.get('/api/site/exchange/rate', { source: 'EUR', target: 'CNY' })).code).toBe(
      'VALIDATION',
    );
    const user = await register(client);
    const spread = data(
      await user.client.get<SpreadRate>('/api/user/findSpreadRateOne.do', { source: 'CNY', target: 'USD' }),
    );
    expect(spread.spreadRate).toBe(0.003);
    expect(spread.midRate).toBeCloseTo(1 / rates.cnyPer.USD, 9);
    expect(spread.rate).toBeCloseTo(spread.midRate! * 0.997, 9);
    expect(data(await user.client.get<SpreadRate>('/api/user/findSpreadRateOne.do'))).toMatchObject({
      spreadRate: 0.003,
      rate: null,
    });
  });

  it('converts at the mid rate less the spread, rounding down by less than a minor unit', async () => {
    const user = await register(client);
    const { cnyPer } = data(await client.get<ExchangeRates>('/api/site/exchange/rate'));
    const micro = (r: number) => BigInt(Math.round(r * 1_000_000));
    const cases: [string, string, number][] = [
      ['CNY', 'USD', 1_234.57],
      ['USD', 'HKD', 333.33],
      ['HKD', 'CNY', 0.07],
      ['USD', 'CNY', 10_000],
    ];
    for (const [source, target, amount] of cases) {
      const record = data(
        await user.client.post<ExchangeRecord>('/api/user/exchange.do', {
          amount,
          source,
          target,
          requestId: newRequestId(),
        }),
      );
      const minor = BigInt(Math.round(amount * 100));
      // exact received × 10^12 = minor × cnyPer(source) × (10^6 − spread) ÷ cnyPer(target), in integers
      const exactNum = minor * micro(cnyPer[source as 'CNY'])! * (1_000_000n - 3_000n);
      const exactDen = micro(cnyPer[target as 'CNY']) * 1_000_000n;
      const got = BigInt(Math.round(record.targetAmount * 100));
      expect(got * exactDen <= exactNum, `${source}→${target}`).toBe(true);
      expect((got + 1n) * exactDen > exactNum, `${source}→${target}`).toBe(true);
      expect(record).toMatchObject({ source, target, sourceAmount: amount, spreadRate: 0.003 });
    }
    const accounts = data(await user.client.get<{ accounts: Account[] }>('/user/getUserInfo.do')).accounts;
    const log = data(await user.client.get<Page<ExchangeRecord>>('/api/user/exchangeLog.do'));
    const cnyInMinor = log.list
      .filter((r) => r.target === 'CNY')
      .reduce((sum, r) => sum + Math.round(r.targetAmount * 100), 0);
    expect(Math.round(accounts.find((a) => a.type === 'main')!.balance * 100)).toBe(
      START - 123_457 + cnyInMinor,
    );
    expect(log.total).toBe(4);
    expect(log.list.map((r) => r.source)).toEqual(['USD', 'HKD', 'USD', 'CNY']);
    const flow = data(
      await user.client.get<Page<LedgerEntry>>('/user/cash/list.do', { type: 'exchange_in' }),
    );
    expect(flow.total).toBe(4);
    await station.assertLedger();
  });

  it('refuses the same currency, other currencies, too small or too large amounts; once per requestId', async () => {
    const user = await register(client);
    const before = await walletCounts(station);
    const post = (body: Record<string, unknown>) =>
      user.client.post('/api/user/exchange.do', { requestId: newRequestId(), ...body });
    expect(failure(await post({ amount: 10, source: 'CNY', target: 'CNY' })).code).toBe('VALIDATION');
    expect(failure(await post({ amount: 10, source: 'CNY', target: 'EUR' })).code).toBe('VALIDATION');
    expect(failure(await post({ amount: 0.01, source: 'HKD', target: 'USD' })).code).toBe('BELOW_MINIMUM');
    const over = failure(await post({ amount: 100_000.01, source: 'USD', target: 'CNY' }));
    expect(over).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    expect(await walletCounts(station)).toEqual(before);
    const requestId = newRequestId();
    const first = data(await post({ amount: 100, source: 'USD', target: 'CNY', requestId }));
    expect(data(await post({ amount: 100, source: 'USD', target: 'CNY', requestId }))).toEqual(first);
    expect(data(await user.client.get<Page<ExchangeRecord>>('/api/user/exchangeLog.do')).total).toBe(1);
  });
});

describe.each(dbTargets)('messages and the fund flow filters (%s)', (db) => {
  let station: Station;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('tells the KYC result in the reader language, counts unread and marks read', async () => {
    const user = await register(client);
    const submit = async () => {
      const front = data(await upload(user.client, PNG));
      const back = data(await upload(user.client, JPEG, 'image/jpeg'));
      data(
        await user.client.post('/user/auth.do', {
          realName: '王五',
          idNumber: freshIdNumber(),
          frontImage: front.id,
          backImage: back.id,
        }),
      );
    };
    await submit();
    await decideKycByOperator(
      station.app.station,
      user.user.id,
      { pass: false, reason: '@validation.idCardCheckDigit' },
      'tester',
      'blurred photo',
    );
    expect(data(await user.client.get<{ unread: number }>('/user/cash/getUnreadCount.do'))).toEqual({
      unread: 1,
    });
    const zh = data(await user.client.withLang('zh-CN').get<UserMessagePage>('/user/cash/getMessagelist.do'));
    expect(zh.list[0]).toMatchObject({ kind: 'kyc', title: '实名认证失败' });
    expect(zh.list[0]!.content).toBe('实名认证失败，请重新认证。原因：身份证号校验位不正确');
    const en = data(await user.client.withLang('en').get<UserMessagePage>('/user/cash/getMessagelist.do'));
    expect(en.list[0]!.content).toContain('KYC authentication failed, please re-authenticate');
    await submit();
    station.clock.advance(station.config.reviewDelaySeconds * 1000);
    await station.app.kycReviewer.run();
    const page = data(await user.client.withLang('en').get<UserMessagePage>('/user/cash/getMessagelist.do'));
    expect(page.list.map((m) => m.title)).toEqual(['Identity verified', 'Identity verification failed']);
    expect(page.unread).toBe(2);
    expect(
      data(await user.client.post<{ unread: number }>('/user/cash/readMessage.do', { id: page.list[0]!.id })),
    ).toEqual({ unread: 1 });
    expect(data(await user.client.post<{ unread: number }>('/user/cash/readMessage.do', {}))).toEqual({
      unread: 0,
    });
    expect(data(await user.client.get<{ unread: number }>('/user/cash/getUnreadCount.do'))).toEqual({
      unread: 0,
    });
    expect((await client.get('/user/cash/getUnreadCount.do')).http).toBe(401);
  });

  it('shows every wallet entry type in the fund flow, each filterable', async () => {
    const user = await readyToWithdraw(station, client);
    data(
      await user.client.post('/user/recharge/inMoney.do', {
        amount: 100,
        channelId: 1,
        requestId: newRequestId(),
      }),
    );
    const cancel = data(
      await user.client.post<{ id: number }>('/user/withdraw/outMoney.do', {
        amount: 100,
        withdrawPassword: WITHDRAW_PASSWORD,
        requestId: newRequestId(),
      }),
    );
    data(await user.client.post('/user/withdraw/cancel.do', { id: cancel.id, reason: 'test' }));
    data(
      await user.client.post('/user/transAmt.do', {
        amount: 100,
        from: 'main',
        to: 'index',
        requestId: newRequestId(),
      }),
    );
    data(
      await user.client.post('/api/user/exchange.do', {
        amount: 100,
        source: 'CNY',
        target: 'USD',
        requestId: newRequestId(),
      }),
    );
    station.clock.advance(station.config.reviewDelaySeconds * 1000);
    await station.app.engine.step();
    for (const type of [
      'deposit',
      'withdraw',
      'withdraw_refund',
      'transfer_in',
      'transfer_out',
      'exchange_in',
      'exchange_out',
    ]) {
      const page = data(await user.client.get<Page<LedgerEntry>>('/user/cash/list.do', { type }));
      expect(page.total, type).toBeGreaterThan(0);
      expect(page.list.every((e) => e.type === type)).toBe(true);
    }
    expect(failure(await user.client.get('/user/cash/list.do', { type: 'nonsense' })).code).toBe(
      'VALIDATION',
    );
    await station.assertLedger();
  });
});

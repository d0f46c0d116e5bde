import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BankCard, User } from '../../src/shared/api/types';
import type { FixedClock } from '../../server/market/clock';
import { setPermission } from '../../server/identity/permissions';
import { passKyc } from './helpers/identity';
import {
  api,
  data,
  dbTargets,
  failure,
  register,
  startStation,
  type ApiClient,
  type TestStation,
} from './helpers/station';

const CARD = { bankName: '中国工商银行', branch: '北京朝阳支行', cardNo: '6222020200112233445' };

describe.each(dbTargets)('bank card and permissions (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('binds a card only after KYC, with the KYC name as holder and the number masked', async () => {
    const me = await register(client);
    const early = await me.client.post('/user/bank/add.do', CARD);
    expect(early.http).toBe(403);
    expect(failure(early).code).toBe('KYC_REQUIRED');
    expect(data(await me.client.get('/user/bank/getBankInfo.do'))).toBeNull();
    expect((await passKyc(station, me, '赵六')).kycStatus).toBe('passed');
    const card = data(
      await me.client.post<BankCard>('/user/bank/add.do', { ...CARD, cardNo: '6222 0202 0011 2233 445' }),
    );
    expect(card).toMatchObject({
      bankName: '中国工商银行',
      holder: '赵六',
      cardNoMasked: '6222 **** **** 3445',
    });
    expect(data(await me.client.get<BankCard>('/user/bank/getBankInfo.do'))).toEqual(card);
    expect(data(await me.client.get<User>('/user/getUserInfo.do')).hasBankCard).toBe(true);
    expect(JSON.stringify(data(await me.client.get('/user/bank/getBankInfo.do')))).not.toContain(
      '6222020200112233445',
    );
  });

  it('checks the card number (1-9 then 14 to 18 digits), bank and branch', async () => {
    const me = await register(client);
    await passKyc(station, me);
    for (const cardNo of [
      '0222020200112233445',
      '62220202',
      '62220202001122334455667',
      '6222abc0200112233',
    ]) {
      const bad = failure(await me.client.post('/user/bank/add.do', { ...CARD, cardNo }));
      expect(bad).toMatchObject({ code: 'VALIDATION', fields: { cardNo: '请输入正确的银行卡号' } });
    }
    const empty = failure(
      await me.client.post('/user/bank/add.do', { ...CARD, bankName: ' ', branch: '<b>x</b>' }),
    );
    expect(Object.keys(empty.fields ?? {}).sort()).toEqual(['bankName', 'branch']);
    expect(data(await me.client.get('/user/bank/getBankInfo.do'))).toBeNull();
  });

  it('keeps one card per user, even when 20 binds race', async () => {
    const me = await register(client);
    await passKyc(station, me);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        me.client.post('/user/bank/add.do', { ...CARD, cardNo: `62220202001122${String(10000 + i)}` }),
      ),
    );
    expect(results.filter((r) => r.http === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.http !== 200)) {
      expect(failure(r)).toMatchObject({ status: 409, code: 'ALREADY_DONE', msg: '您已绑定银行卡' });
    }
  });

  it('refuses a change with "contact customer service" until the back office allows one change', async () => {
    const me = await register(client);
    await passKyc(station, me);
    data(await me.client.post('/user/bank/add.do', CARD));
    const refused = await me.client.post('/user/bank/update.do', { ...CARD, cardNo: '6217000011112222333' });
    expect(refused.http).toBe(403);
    expect(failure(refused)).toMatchObject({ code: 'NO_PERMISSION', msg: '如需更换银行卡，请联系客服' });
    expect(data(await me.client.get<BankCard>('/user/bank/getBankInfo.do')).cardNoMasked).toBe(
      '6222 **** **** 3445',
    );

    await setPermission(station.app.station, me.user.id, 'bank_change', true, 'test', 'user called support');
    expect(
      data(await me.client.get<{ permissions: string[] }>('/user/getPermissions.do')).permissions,
    ).toEqual(['bank_change']);
    const changed = data(
      await me.client.post<BankCard>('/user/bank/update.do', {
        bankName: '招商银行',
        branch: '深圳分行',
        cardNo: '6217000011112222333',
      }),
    );
    expect(changed).toMatchObject({ bankName: '招商银行', cardNoMasked: '6217 **** **** 2333' });
    expect(
      data(await me.client.get<{ permissions: string[] }>('/user/getPermissions.do')).permissions,
    ).toEqual([]);
    expect(failure(await me.client.post('/user/bank/update.do', CARD)).code).toBe('NO_PERMISSION');
  });

  it('answers a change without a card with BANK_CARD_REQUIRED', async () => {
    const me = await register(client);
    await passKyc(station, me);
    expect(failure(await me.client.post('/user/bank/update.do', CARD)).code).toBe('BANK_CARD_REQUIRED');
  });
});

describe.each(dbTargets)('region blocking (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db, env: { REGION_HEADER: 'CF-IPCountry', BLOCKED_REGIONS: 'kp, ir' } });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('answers REGION_BLOCKED to calls from a blocked region, in the caller’s language', async () => {
    const blocked = client.withHeaders({ 'cf-ipcountry': 'KP' });
    const res = await blocked.get('/api/user/checkPhone.do', { phone: '13800000000' });
    expect(res.http).toBe(403);
    expect(failure(res)).toMatchObject({ code: 'REGION_BLOCKED', msg: '您所在的地区暂不提供服务' });
    expect(
      failure(
        await blocked.withLang('en').post('/api/user/login.do', { phone: '13800000000', password: 'abc123' }),
      ),
    ).toMatchObject({ code: 'REGION_BLOCKED', msg: 'This service is not available in your area' });
    expect(failure(await client.withHeaders({ 'cf-ipcountry': 'ir' }).get('/user/getUserInfo.do')).code).toBe(
      'REGION_BLOCKED',
    );
    const counts = await station.counts();
    expect(failure(await blocked.post('/api/sms/sendRegSms.do', { phone: '13800000001' })).code).toBe(
      'REGION_BLOCKED',
    );
    expect(await station.counts()).toEqual(counts);
  });

  it('lets other regions and the ping through', async () => {
    data(await client.withHeaders({ 'cf-ipcountry': 'KP' }).get('/api/index/ping.do'));
    const me = await register(client.withHeaders({ 'cf-ipcountry': 'CN' }));
    data(await me.client.get('/user/getUserInfo.do'));
  });
});

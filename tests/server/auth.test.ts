import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResult, User } from '../../src/shared/api/types';
import {
  api,
  data,
  dbTargets,
  failure,
  newPhone,
  register,
  startStation,
  type ApiClient,
  type TestStation,
} from './helpers/station';
import type { FixedClock } from '../../server/market/clock';
import { consumeSmsCode } from '../../server/identity/users';

describe.each(dbTargets)('registration and sessions (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db });
    client = api(station.url);
  });
  afterAll(async () => station?.close());
  afterEach(async () => station.assertLedger());

  const sendCode = async (phone: string) =>
    data(await client.post<{ ttlSeconds: number; demoCode?: string }>('/api/sms/sendRegSms.do', { phone }));

  it('answers the ping with the server time and version', async () => {
    const ping = data(await client.get<{ serverTime: number; version: string }>('/api/index/ping.do'));
    expect(ping.serverTime).toBe(station.clock.now());
    expect(ping.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('registers with the demo code and opens five accounts with paper balances as ledger entries', async () => {
    const phone = newPhone();
    const sms = await sendCode(phone);
    expect(sms.ttlSeconds).toBe(60);
    expect(sms.demoCode).toMatch(/^\d{6}$/);
    const res = await client.post<AuthResult>('/api/user/reg.do', {
      phone,
      password: ' ab c123 ',
      code: sms.demoCode,
    });
    const result = data(res);
    expect(result.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(result.user.phone).toBe(`${phone.slice(0, 3)}****${phone.slice(7)}`);
    expect(result.user.kycStatus).toBe('none');
    expect(result.user.inviteCode).toMatch(/^[A-Z2-9]{8}$/);
    const balances = Object.fromEntries(result.user.accounts.map((a) => [a.type, [a.currency, a.balance]]));
    expect(balances).toEqual({
      main: ['CNY', 1_000_000],
      index: ['CNY', 0],
      newstock: ['CNY', 0],
      hk: ['HKD', 100_000],
      us: ['USD', 100_000],
    });
    const main = result.user.accounts.find((a) => a.type === 'main')!;
    expect(main).toMatchObject({
      available: 1_000_000,
      frozenMargin: 0,
      positionPnl: 0,
      totalAssets: 1_000_000,
    });
    expect(main.liquidationLine).toBe(1.05);

    const ledger = data(
      await client
        .withToken(result.token)
        .get<{ list: { type: string; amount: number; account: string }[] }>('/user/cash/list.do'),
    );
    expect(ledger.list.map((e) => [e.account, e.type, e.amount]).sort()).toEqual([
      ['hk', 'opening_balance', 100_000],
      ['main', 'opening_balance', 1_000_000],
      ['us', 'opening_balance', 100_000],
    ]);
    // Whitespace is stripped from passwords (spec §5): the password is "abc123".
    data(await client.post('/api/user/login.do', { phone, password: 'abc123' }));
  });

  it('refuses a wrong code with BAD_CODE and burns the code after five wrong tries', async () => {
    const phone = newPhone();
    const { demoCode } = await sendCode(phone);
    const wrong = demoCode === '000000' ? '111111' : '000000';
    const first = failure(await client.post('/api/user/reg.do', { phone, password: 'abc123', code: wrong }));
    expect(first).toMatchObject({ status: 400, code: 'BAD_CODE', msg: '验证码错误，请重新输入' });
    for (let i = 0; i < 4; i++)
      await client.post('/api/user/reg.do', { phone, password: 'abc123', code: wrong });
    const burnt = await client.post('/api/user/reg.do', { phone, password: 'abc123', code: demoCode });
    expect(burnt.http).toBe(400);
    expect(failure(burnt).code).toBe('BAD_CODE');
    expect(
      (await client.get<{ registered: boolean }>('/api/user/checkPhone.do', { phone })).body,
    ).toMatchObject({
      data: { registered: false },
    });
  });

  it('refuses an expired code with CODE_EXPIRED (the code lives 60 s)', async () => {
    const phone = newPhone();
    const { demoCode } = await sendCode(phone);
    station.clock.advance(61_000);
    const res = await client
      .withLang('en')
      .post('/api/user/reg.do', { phone, password: 'abc123', code: demoCode });
    expect(res.http).toBe(400);
    expect(failure(res)).toMatchObject({ code: 'CODE_EXPIRED', msg: expect.stringMatching(/expired/) });
  });

  it('accepts a code just inside its 60 s', async () => {
    const phone = newPhone();
    const { demoCode } = await sendCode(phone);
    station.clock.advance(59_000);
    data(await client.post('/api/user/reg.do', { phone, password: 'abc123', code: demoCode }));
  });

  it('uses a code once', async () => {
    const phone = newPhone();
    const { demoCode } = await sendCode(phone);
    await expect(consumeSmsCode(station.app.station, phone, 'reg', demoCode!)).resolves.toBeUndefined();
    await expect(consumeSmsCode(station.app.station, phone, 'reg', demoCode!)).rejects.toMatchObject({
      code: 'BAD_CODE',
    });
    const res = await client.post('/api/user/reg.do', { phone, password: 'abc123', code: demoCode });
    expect(failure(res).code).toBe('BAD_CODE');
  });

  it('sends at most one code per phone per 60 s (RATE_LIMITED)', async () => {
    const phone = newPhone();
    await sendCode(phone);
    const again = await client.post('/api/sms/sendRegSms.do', { phone });
    expect(again.http).toBe(429);
    expect(failure(again).code).toBe('RATE_LIMITED');
    station.clock.advance(60_001);
    await sendCode(phone);
  });

  it('says PHONE_TAKEN to a registered phone, for a code and for registration', async () => {
    const user = await register(client);
    expect(
      data(await client.get<{ registered: boolean }>('/api/user/checkPhone.do', { phone: user.phone })),
    ).toEqual({
      registered: true,
    });
    const sms = await client.post('/api/sms/sendRegSms.do', { phone: user.phone });
    expect(sms.http).toBe(409);
    expect(failure(sms)).toMatchObject({ code: 'PHONE_TAKEN', msg: '用户已注册，请登录' });
    const reg = await client
      .withLang('en')
      .post('/api/user/reg.do', { phone: user.phone, password: 'abc123', code: '123456' });
    expect(failure(reg)).toMatchObject({
      status: 409,
      code: 'PHONE_TAKEN',
      msg: 'This user is already registered, please log in',
    });
  });

  it('names each bad field with its message in zh-CN and in en', async () => {
    const bad = { phone: '1380000', password: 'a b', code: '12ab' };
    const zh = failure(await client.post('/api/user/reg.do', bad));
    expect(zh).toEqual({
      status: 400,
      code: 'VALIDATION',
      msg: '输入有误，请检查后重试',
      fields: {
        phone: '请输入正确的手机号',
        password: '密码为6-12位字母、数字或符号!@#$%^&*',
        code: '验证码为6位数字',
      },
    });
    const en = failure(await client.withLang('en-US,en;q=0.9').post('/api/user/reg.do', { password: '' }));
    expect(en.fields).toEqual({
      phone: 'The phone number cannot be empty',
      password: 'Please enter the password',
      code: 'Please enter the verification code',
    });
    // Traditional Chinese, Thai and Vietnamese have their own locale folders and answer in their language.
    expect(
      failure(await client.withLang('zh-TW').post('/api/sms/sendRegSms.do', { phone: 'x' })).fields,
    ).toEqual({
      phone: '請輸入正確的手機號碼',
    });
    expect(failure(await client.withLang('th').post('/api/sms/sendRegSms.do', { phone: '' })).fields).toEqual(
      {
        phone: 'โปรดกรอกหมายเลขโทรศัพท์',
      },
    );
    expect(
      failure(await client.withLang('vi-VN,vi;q=0.9').post('/api/sms/sendRegSms.do', { phone: '' })).fields,
    ).toEqual({
      phone: 'Số điện thoại không được để trống',
    });
  });

  it('records the inviter and refuses an unknown invitation code', async () => {
    const inviter = await register(client);
    const invited = await register(client, { inviteCode: inviter.user.inviteCode.toLowerCase() });
    const row = await station.app.db
      .selectFrom('users')
      .select('inviter_id')
      .where('id', '=', invited.user.id)
      .executeTakeFirstOrThrow();
    expect(row.inviter_id).toBe(inviter.user.id);

    const phone = newPhone();
    const { demoCode } = await sendCode(phone);
    const res = await client.post('/api/user/reg.do', {
      phone,
      password: 'abc123',
      code: demoCode,
      inviteCode: 'NOSUCH99',
    });
    expect(failure(res)).toMatchObject({ code: 'VALIDATION', fields: { inviteCode: '格式不正确' } });
  });

  it('logs in, and answers BAD_CREDENTIALS alike for a wrong password and an unknown phone', async () => {
    const user = await register(client);
    const ok = data(
      await client.post<AuthResult>('/api/user/login.do', { phone: user.phone, password: user.password }),
    );
    expect(ok.user.id).toBe(user.user.id);
    expect(ok.token).not.toBe(user.token);
    const wrong = await client.post('/api/user/login.do', { phone: user.phone, password: 'wrong999' });
    const unknown = await client.post('/api/user/login.do', { phone: newPhone(), password: 'wrong999' });
    expect(wrong.http).toBe(401);
    expect(unknown.http).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(failure(wrong)).toEqual({ status: 401, code: 'BAD_CREDENTIALS', msg: '手机号或密码错误' });
  });

  it('sets an HttpOnly USER_TOKEN cookie ending at midnight in Shanghai, and accepts it instead of the header', async () => {
    const user = await register(client);
    const res = await client.post<AuthResult>('/api/user/login.do', {
      phone: user.phone,
      password: user.password,
    });
    const cookie = res.headers.get('set-cookie') ?? '';
    const token = data(res).token;
    expect(cookie).toContain(`USER_TOKEN=${token}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    // The pinned clock is 10:00 on 12 March 2025 in Shanghai: the day ends at 16:00 UTC.
    expect(cookie).toContain('Expires=Wed, 12 Mar 2025 16:00:00 GMT');
    const viaCookie = client.withHeaders({ cookie: `USER_TOKEN=${token}` });
    expect(data(await viaCookie.get<User>('/user/getUserInfo.do')).id).toBe(user.user.id);
  });

  it('revokes the session at logout', async () => {
    const user = await register(client);
    data(await user.client.get('/user/getUserInfo.do'));
    const out = await user.client.post('/api/user/logout.do');
    expect(out.body).toEqual({ status: 0, msg: '', data: null });
    expect(out.headers.get('set-cookie')).toMatch(/USER_TOKEN=;/);
    const after = await user.client.get('/user/getUserInfo.do');
    expect(after.http).toBe(401);
    expect(failure(after).code).toBe('NOT_LOGGED_IN');
  });

  it('answers NOT_LOGGED_IN without a session, in each language', async () => {
    expect((await client.get('/user/getUserInfo.do')).body).toEqual({
      status: 401,
      code: 'NOT_LOGGED_IN',
      msg: '请先登录',
    });
    const en = await client
      .withLang('en')
      .post('/user/buy.do', { code: 'AAPL', lots: 1, leverage: 1, requestId: 'abcdefgh1' });
    expect(en.http).toBe(401);
    expect(en.body).toEqual({ status: 401, code: 'NOT_LOGGED_IN', msg: 'Please log in first' });
    const forged = await client.withToken('A'.repeat(43)).withLang('zh-CN').get('/user/cash/list.do');
    expect(forged.body).toEqual({ status: 401, code: 'NOT_LOGGED_IN', msg: '请先登录' });
  });

  it('stores only hashes of tokens and passwords', async () => {
    const user = await register(client);
    const row = await station.app.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.user.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain(user.password);
    const sessions = await station.app.db.selectFrom('sessions').select('token_hash').execute();
    expect(sessions.some((s) => s.token_hash === user.token)).toBe(false);
    expect(sessions.every((s) => /^[0-9a-f]{64}$/.test(s.token_hash))).toBe(true);
  });
});

describe('SMS_GATEWAY=console', () => {
  it('prints the code to the log instead of handing it to the app, and never logs the password or the phone', async () => {
    // At debug every request gets its own line too: the most the station ever logs.
    const station = await startStation({
      db: 'sqlite',
      env: { SMS_GATEWAY: 'console', LOG_LEVEL: 'debug' },
      captureLogs: true,
    });
    try {
      const client = api(station.url);
      const phone = newPhone();
      const res = data(
        await client.post<{ ttlSeconds: number; demoCode?: string }>('/api/sms/sendRegSms.do', { phone }),
      );
      expect(res).toEqual({ ttlSeconds: 60 });
      const line = station.logs.find((l) => l.includes('SMS code'));
      const code = /SMS code for \d{3}\*{4}\d{4}: (\d{6})/.exec(line ?? '')?.[1];
      expect(code).toMatch(/^\d{6}$/);
      const password = 'Secret#1234';
      data(await client.post('/api/user/reg.do', { phone, password, code }));
      data(await client.post('/api/user/login.do', { phone, password }));
      await client.post('/api/user/login.do', { phone, password: 'Wrong#1234' });
      expect(station.logs.length).toBeGreaterThan(3);
      expect(station.logs.join('\n')).not.toContain('Secret#1234');
      expect(station.logs.join('\n')).not.toContain('Wrong#1234');
      expect(station.logs.join('\n')).not.toContain(phone);
    } finally {
      await station.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResult, User } from '../../src/shared/api/types';
import type { FixedClock } from '../../server/market/clock';
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

type Sms = { ttlSeconds: number; demoCode?: string };

describe.each(dbTargets)('passwords, codes and login lockout (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({
      db,
      env: { SMS_DAILY_PER_PHONE: '3', LOGIN_MAX_FAILURES: '5', LOGIN_LOCK_MIN: '15' },
    });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('caps the codes sent to one phone per day, across purposes, and starts afresh the next day', async () => {
    const phone = newPhone();
    for (let i = 0; i < 3; i++) {
      data(await client.post<Sms>('/api/sms/sendRegSms.do', { phone }));
      station.clock.advance(61_000);
    }
    const capped = await client.withLang('en').post('/api/sms/sendRegSms.do', { phone });
    expect(capped.http).toBe(429);
    expect(failure(capped)).toMatchObject({
      code: 'RATE_LIMITED',
      msg: expect.stringMatching(/daily limit/),
    });
    station.clock.advance(86_400_000);
    data(await client.post<Sms>('/api/sms/sendRegSms.do', { phone }));
  });

  it('tells how long to wait before another code to the same phone', async () => {
    const phone = newPhone();
    data(await client.post<Sms>('/api/sms/sendRegSms.do', { phone }));
    const soon = failure(await client.post('/api/sms/sendRegSms.do', { phone }));
    expect(soon).toMatchObject({ code: 'RATE_LIMITED', msg: '验证码发送过于频繁，请60秒后再试' });
  });

  it('sends one code, not more, when 200 requests for the same phone arrive at once', async () => {
    const phone = newPhone();
    const results = await Promise.all(
      Array.from({ length: 200 }, () => client.post<Sms>('/api/sms/sendRegSms.do', { phone })),
    );
    expect(results.filter((r) => r.http === 200)).toHaveLength(1);
    expect(results.filter((r) => r.http === 429)).toHaveLength(199);
    const codes = await station.app.db
      .selectFrom('sms_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('phone', '=', phone)
      .executeTakeFirstOrThrow();
    expect(Number(codes.n)).toBe(1);
  });

  it('checks a code without using it up (checkCode.do), and counts wrong guesses', async () => {
    const phone = newPhone();
    const { demoCode } = data(await client.post<Sms>('/api/sms/sendRegSms.do', { phone }));
    const wrong = demoCode === '000000' ? '111111' : '000000';
    expect(failure(await client.post('/code/checkCode.do', { phone, code: wrong }))).toMatchObject({
      status: 400,
      code: 'BAD_CODE',
    });
    data(await client.post('/code/checkCode.do', { phone, code: demoCode }));
    data(await client.post('/code/checkCode.do', { phone, code: demoCode, purpose: 'reg' }));
    data(await client.post<AuthResult>('/api/user/reg.do', { phone, password: 'abc123', code: demoCode }));
  });

  it('locks a phone after repeated wrong passwords, even for the right one, until the lock ends', async () => {
    const me = await register(client);
    for (let i = 0; i < 5; i++) {
      const wrong = failure(
        await client.post('/api/user/login.do', { phone: me.phone, password: 'wrong12' }),
      );
      expect(wrong.code).toBe('BAD_CREDENTIALS');
    }
    const locked = await client.post('/api/user/login.do', { phone: me.phone, password: me.password });
    expect(locked.http).toBe(429);
    expect(failure(locked)).toMatchObject({
      code: 'RATE_LIMITED',
      msg: '密码错误次数过多，该手机号已被锁定，请15分钟后再试',
    });
    station.clock.advance(15 * 60_000 + 1);
    data(await client.post<AuthResult>('/api/user/login.do', { phone: me.phone, password: me.password }));
  });

  it('forgets failures after a successful login', async () => {
    const me = await register(client);
    for (let i = 0; i < 4; i++)
      await client.post('/api/user/login.do', { phone: me.phone, password: 'wrong12' });
    data(await client.post<AuthResult>('/api/user/login.do', { phone: me.phone, password: me.password }));
    for (let i = 0; i < 4; i++)
      await client.post('/api/user/login.do', { phone: me.phone, password: 'wrong12' });
    data(await client.post<AuthResult>('/api/user/login.do', { phone: me.phone, password: me.password }));
  });

  it('lets at most 5 of 200 parallel password guesses be tried, then locks the phone', async () => {
    const me = await register(client);
    const guesses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        client.post('/api/user/login.do', {
          phone: me.phone,
          password: `guess${String(i).padStart(3, '0')}`,
        }),
      ),
    );
    expect(guesses.filter((r) => r.body.status !== 0 && failure(r).code === 'BAD_CREDENTIALS')).toHaveLength(
      5,
    );
    expect(guesses.filter((r) => r.http === 429)).toHaveLength(195);
    expect(
      failure(await client.post('/api/user/login.do', { phone: me.phone, password: me.password })).code,
    ).toBe('RATE_LIMITED');
    station.clock.advance(15 * 60_000 + 1);
  });

  it('resets a forgotten password with an SMS code and ends every session', async () => {
    const me = await register(client);
    // An unregistered phone gets the same answer, without a code: the call tells nobody who is registered.
    const stranger = newPhone();
    expect(data(await client.post('/api/sms/sendForgetSms.do', { phone: stranger }))).toEqual({
      ttlSeconds: 60,
    });
    expect(
      failure(
        await client.post('/api/user/updatePwd.do', { phone: stranger, code: '123456', password: 'newpw1' }),
      ).code,
    ).toBe('BAD_CODE');
    const { demoCode } = data(await client.post<Sms>('/api/sms/sendForgetSms.do', { phone: me.phone }));
    const wrong = demoCode === '000000' ? '111111' : '000000';
    expect(
      failure(
        await client.post('/api/user/updatePwd.do', { phone: me.phone, code: wrong, password: 'newpw1' }),
      ).code,
    ).toBe('BAD_CODE');
    const bad = failure(
      await client.post('/api/user/updatePwd.do', { phone: me.phone, code: demoCode, password: 'x' }),
    );
    expect(bad.fields).toHaveProperty('password');
    data(
      await client.post('/api/user/updatePwd.do', { phone: me.phone, code: demoCode, password: 'newpw1' }),
    );
    expect(failure(await me.client.get('/user/getUserInfo.do')).code).toBe('NOT_LOGGED_IN');
    expect(
      failure(await client.post('/api/user/login.do', { phone: me.phone, password: me.password })).code,
    ).toBe('BAD_CREDENTIALS');
    data(await client.post<AuthResult>('/api/user/login.do', { phone: me.phone, password: 'newpw1' }));
    // The code is used up.
    expect(
      failure(
        await client.post('/api/user/updatePwd.do', { phone: me.phone, code: demoCode, password: 'newpw2' }),
      ).code,
    ).toBe('BAD_CODE');
  });

  it('changes the password with the old one, keeps this session and ends the others', async () => {
    const me = await register(client);
    const other = data(
      await client.post<AuthResult>('/api/user/login.do', { phone: me.phone, password: me.password }),
    );
    const wrongOld = await me.client.post('/user/updatePwd.do', {
      oldPassword: 'nope123',
      password: 'next12',
    });
    expect(wrongOld.http).toBe(400);
    expect(failure(wrongOld)).toMatchObject({ code: 'BAD_CREDENTIALS', msg: '原密码错误' });
    const inconsistent = failure(
      await me.client.post('/user/updatePwd.do', {
        oldPassword: me.password,
        password: 'next12',
        confirmPassword: 'next13',
      }),
    );
    expect(inconsistent).toMatchObject({ code: 'VALIDATION', fields: { confirmPassword: '新密码不一致' } });
    const en = failure(
      await me.client.withLang('en').post('/user/updatePwd.do', {
        oldPassword: me.password,
        password: 'next12',
        confirmPassword: 'next13',
      }),
    );
    expect(en.fields).toEqual({ confirmPassword: 'The new password is inconsistent' });
    data(
      await me.client.post('/user/updatePwd.do', {
        oldPassword: me.password,
        password: 'next12',
        confirmPassword: 'next12',
      }),
    );
    data(await me.client.get<User>('/user/getUserInfo.do'));
    expect(failure(await client.withToken(other.token).get('/user/getUserInfo.do')).code).toBe(
      'NOT_LOGGED_IN',
    );
    data(await client.post<AuthResult>('/api/user/login.do', { phone: me.phone, password: 'next12' }));
  });

  it('sets the withdrawal password once and changes it only with the current one', async () => {
    const me = await register(client);
    const badFormat = failure(await me.client.post('/user/insertWithPwd.do', { withPwd: '12ab' }));
    expect(badFormat).toMatchObject({ code: 'VALIDATION', fields: { withPwd: '资金密码为6位数字' } });
    data(await me.client.post('/user/insertWithPwd.do', { withPwd: '135790' }));
    expect(data(await me.client.get<User>('/user/getUserInfo.do')).hasWithdrawPassword).toBe(true);
    const hashBefore = await station.app.db
      .selectFrom('users')
      .select('withdraw_password_hash')
      .where('id', '=', me.user.id)
      .executeTakeFirstOrThrow();
    expect(failure(await me.client.post('/user/insertWithPwd.do', { withPwd: '246802' }))).toMatchObject({
      code: 'VALIDATION',
      fields: { oldWithPwd: expect.any(String) },
    });
    expect(
      failure(await me.client.post('/user/insertWithPwd.do', { withPwd: '246802', oldWithPwd: '000000' })),
    ).toMatchObject({ code: 'BAD_WITHDRAW_PASSWORD', msg: '资金密码错误' });
    const hashAfterRefusals = await station.app.db
      .selectFrom('users')
      .select('withdraw_password_hash')
      .where('id', '=', me.user.id)
      .executeTakeFirstOrThrow();
    expect(hashAfterRefusals).toEqual(hashBefore);
    data(await me.client.post('/user/insertWithPwd.do', { withPwd: '246802', oldWithPwd: '135790' }));
    data(await me.client.post('/user/insertWithPwd.do', { withPwd: '111111', oldWithPwd: '246802' }));
  });

  it('never stores or logs a password in clear', async () => {
    const me = await register(client, { password: 'Zq9!Zq9!' });
    const row = await station.app.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', me.user.id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(row.password_hash).not.toContain('Zq9!Zq9!');
  });
});

describe.each(dbTargets)('SMS cap per caller address and invitation codes (%s)', (db) => {
  let station: TestStation<FixedClock>;
  let client: ApiClient;

  beforeAll(async () => {
    station = await startStation({ db, env: { SMS_DAILY_PER_IP: '20', INVITE_CODE: 'required' } });
    client = api(station.url);
  });
  afterAll(async () => station?.close());

  it('requires an invitation code once the first account exists, and records the inviter', async () => {
    // The registration form learns the rule from getProductSetting.do, as reg.do will judge it.
    const required = async () =>
      data(
        await client.get<{ registration: { inviteCodeRequired: boolean } }>(
          '/api/admin/getProductSetting.do',
        ),
      ).registration.inviteCodeRequired;
    expect(await required()).toBe(false);
    const first = await register(client);
    expect(await required()).toBe(true);
    const phone = newPhone();
    const { demoCode } = data(await client.post<Sms>('/api/sms/sendRegSms.do', { phone }));
    const missing = failure(
      await client.post('/api/user/reg.do', { phone, password: 'abc123', code: demoCode }),
    );
    expect(missing).toMatchObject({ code: 'VALIDATION', fields: { inviteCode: '请输入邀请码' } });
    const unknown = failure(
      await client.post('/api/user/reg.do', {
        phone,
        password: 'abc123',
        code: demoCode,
        inviteCode: 'ZZZZ2222',
      }),
    );
    expect(unknown.fields).toHaveProperty('inviteCode');
    const invited = data(
      await client.post<AuthResult>('/api/user/reg.do', {
        phone,
        password: 'abc123',
        code: demoCode,
        inviteCode: first.user.inviteCode.toLowerCase(),
      }),
    );
    const row = await station.app.db
      .selectFrom('users')
      .select('inviter_id')
      .where('id', '=', invited.user.id)
      .executeTakeFirstOrThrow();
    expect(row.inviter_id).toBe(first.user.id);
    expect(invited.user.inviteCode).not.toBe(first.user.inviteCode);
  });

  it('sends at most the daily cap from one address, however many phones ask at once', async () => {
    const used = await station.app.db
      .selectFrom('sms_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const results = await Promise.all(
      Array.from({ length: 200 }, () => client.post<Sms>('/api/sms/sendRegSms.do', { phone: newPhone() })),
    );
    const sent = results.filter((r) => r.http === 200).length;
    expect(sent).toBe(20 - Number(used.n));
    expect(results.filter((r) => r.http === 429)).toHaveLength(200 - sent);
    const after = await station.app.db
      .selectFrom('sms_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(20);
  });
});

describe.each(dbTargets)('the caller address behind a load balancer (%s)', (db) => {
  const send = (station: TestStation<FixedClock>, forwardedFor: string) =>
    api(station.url)
      .withHeaders({ 'x-forwarded-for': forwardedFor })
      .post<Sms>('/api/sms/sendRegSms.do', { phone: newPhone() });

  it('with TRUST_PROXY=true counts the daily SMS cap per address of X-Forwarded-For', async () => {
    const station = await startStation({ db, env: { SMS_DAILY_PER_IP: '2', TRUST_PROXY: 'true' } });
    try {
      expect((await send(station, '203.0.113.1')).http).toBe(200);
      expect((await send(station, '203.0.113.1')).http).toBe(200);
      expect(failure(await send(station, '203.0.113.1'))).toMatchObject({ code: 'RATE_LIMITED' });
      // Another phone user behind the same balancer has a cap of their own.
      expect((await send(station, '203.0.113.2')).http).toBe(200);
    } finally {
      await station.close();
    }
  });

  it('by default ignores X-Forwarded-For, which any caller could write', async () => {
    const station = await startStation({ db, env: { SMS_DAILY_PER_IP: '2' } });
    try {
      expect((await send(station, '203.0.113.1')).http).toBe(200);
      expect((await send(station, '203.0.113.2')).http).toBe(200);
      expect(failure(await send(station, '203.0.113.3'))).toMatchObject({ code: 'RATE_LIMITED' });
    } finally {
      await station.close();
    }
  });
});

/**
 * Enumeration and lockout abuse (README "Security"): phone checks and logins are throttled per address,
 * wrong passwords lock a phone for the address they came from before they lock it everywhere, and the owner
 * can always reset the password by SMS.
 */
import { describe, expect, it } from 'vitest';
import {
  api,
  data,
  dbTargets,
  failure,
  newPhone,
  register,
  startStation,
  type ApiClient,
  type ApiResponse,
} from './helpers/station';

/** A client that the station (TRUST_PROXY=true) sees as calling from `ip`. */
const from = (client: ApiClient, ip: string) => client.withHeaders({ 'x-forwarded-for': ip });

describe.each(dbTargets)('what one address may try (%s)', (db) => {
  it('throttles phone checks per address, in the user’s language', async () => {
    const station = await startStation({
      db,
      env: { TRUST_PROXY: 'true', CHECK_PHONE_PER_IP_HOURLY: '5' },
    });
    try {
      const a = from(api(station.url), '203.0.113.7');
      for (let i = 0; i < 5; i++) data(await a.get('/api/user/checkPhone.do', { phone: '13800000000' }));
      const refused = await a.withLang('en').get('/api/user/checkPhone.do', { phone: '13800000001' });
      expect(refused.http).toBe(429);
      expect(failure(refused)).toMatchObject({ code: 'RATE_LIMITED', msg: expect.stringMatching(/network/) });
      // Another address is not affected.
      data(
        await from(api(station.url), '203.0.113.8').get('/api/user/checkPhone.do', { phone: '13800000000' }),
      );
    } finally {
      await station.close();
    }
  });

  it('throttles checks of one phone from all addresses together, and only that phone', async () => {
    const station = await startStation({
      db,
      env: { TRUST_PROXY: 'true', CHECK_PHONE_PER_PHONE_HOURLY: '3', CHECK_PHONE_PER_IP_HOURLY: '100' },
    });
    try {
      const check = (ip: string, phone: string) =>
        from(api(station.url), ip).withLang('en').get('/api/user/checkPhone.do', { phone });
      for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) data(await check(ip, '13800000000'));
      const refused = await check('203.0.113.4', '13800000000');
      expect(refused.http).toBe(429);
      expect(failure(refused)).toMatchObject({
        code: 'RATE_LIMITED',
        msg: expect.stringMatching(/checked too often/),
      });
      // Another phone, from the same address, is not affected.
      data(await check('203.0.113.4', '13800000001'));
      // An hour later the phone may be checked again.
      station.clock.advance(3_600_000);
      data(await check('203.0.113.5', '13800000000'));
    } finally {
      await station.close();
    }
  });

  it('locks a phone for the guessing address only; the owner logs in from elsewhere', async () => {
    const station = await startStation({
      db,
      env: { TRUST_PROXY: 'true', LOGIN_MAX_FAILURES: '3', LOGIN_PHONE_FAILURES: '6' },
    });
    try {
      const me = await register(api(station.url));
      const attacker = from(api(station.url), '198.51.100.1');
      for (let i = 0; i < 3; i++) {
        expect(
          failure(await attacker.post('/api/user/login.do', { phone: me.phone, password: 'wrong99' })).code,
        ).toBe('BAD_CREDENTIALS');
      }
      // Locked for the attacker, even with the right password.
      expect(
        failure(await attacker.post('/api/user/login.do', { phone: me.phone, password: me.password })).code,
      ).toBe('RATE_LIMITED');
      const owner = from(api(station.url), '192.0.2.50');
      data(await owner.post('/api/user/login.do', { phone: me.phone, password: me.password }));

      // Guesses from many addresses together lock the phone everywhere (LOGIN_PHONE_FAILURES)...
      for (const ip of ['198.51.100.2', '198.51.100.3', '198.51.100.4']) {
        for (let i = 0; i < 2; i++)
          await from(api(station.url), ip).post('/api/user/login.do', {
            phone: me.phone,
            password: 'wrong99',
          });
      }
      expect(
        failure(await owner.post('/api/user/login.do', { phone: me.phone, password: me.password })).code,
      ).toBe('RATE_LIMITED');
      // ...until the owner resets the password by SMS, which lifts every lock of the phone.
      const { demoCode } = data(
        await owner.post<{ demoCode: string }>('/api/sms/sendForgetSms.do', { phone: me.phone }),
      );
      data(
        await owner.post('/api/user/updatePwd.do', { phone: me.phone, code: demoCode, password: 'fresh123' }),
      );
      data(await owner.post('/api/user/login.do', { phone: me.phone, password: 'fresh123' }));
      data(await attacker.post('/api/user/login.do', { phone: me.phone, password: 'fresh123' }));
    } finally {
      await station.close();
    }
  });

  it('spends the per-address quotas only on calls whose fields pass', async () => {
    const station = await startStation({
      db,
      env: {
        TRUST_PROXY: 'true',
        CHECK_PHONE_PER_IP_HOURLY: '2',
        LOGIN_PER_IP_HOURLY: '2',
        SMS_DAILY_PER_IP: '2',
      },
    });
    try {
      const a = from(api(station.url), '203.0.113.20');
      const refusedAsInvalid = async (res: Promise<ApiResponse<unknown>>) =>
        expect(failure(await res).code).toBe('VALIDATION');
      for (let i = 0; i < 5; i++) {
        await refusedAsInvalid(a.get('/api/user/checkPhone.do', { phone: `1${i}` }));
        await refusedAsInvalid(a.post('/api/user/login.do', { phone: '1380000', password: 'wrong99' }));
        await refusedAsInvalid(a.post('/api/user/login.do', { phone: newPhone(), password: 'x' }));
        await refusedAsInvalid(a.post('/api/sms/sendRegSms.do', { phone: `12${i}` }));
        await refusedAsInvalid(a.post('/api/sms/sendForgetSms.do', { phone: 'x\u0000' }));
      }
      // The whole quota of each is still there, and then it is spent.
      for (let i = 0; i < 2; i++) {
        data(await a.get('/api/user/checkPhone.do', { phone: newPhone() }));
        expect(
          failure(await a.post('/api/user/login.do', { phone: newPhone(), password: 'wrong99' })).code,
        ).toBe('BAD_CREDENTIALS');
        data(await a.post('/api/sms/sendRegSms.do', { phone: newPhone() }));
      }
      expect(failure(await a.get('/api/user/checkPhone.do', { phone: newPhone() })).code).toBe(
        'RATE_LIMITED',
      );
      expect(
        failure(await a.post('/api/user/login.do', { phone: newPhone(), password: 'wrong99' })).code,
      ).toBe('RATE_LIMITED');
      expect(failure(await a.post('/api/sms/sendForgetSms.do', { phone: newPhone() })).code).toBe(
        'RATE_LIMITED',
      );
    } finally {
      await station.close();
    }
  });

  it('throttles logins per address, whatever the phones', async () => {
    const station = await startStation({
      db,
      env: { TRUST_PROXY: 'true', LOGIN_PER_IP_HOURLY: '3' },
    });
    try {
      const a = from(api(station.url), '203.0.113.9');
      for (let i = 0; i < 3; i++)
        await a.post('/api/user/login.do', { phone: `1390000000${i}`, password: 'wrong99' });
      expect(
        failure(await a.post('/api/user/login.do', { phone: '13900000009', password: 'wrong99' })).code,
      ).toBe('RATE_LIMITED');
    } finally {
      await station.close();
    }
  });
});

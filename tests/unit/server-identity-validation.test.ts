import { describe, expect, it } from 'vitest';
import {
  checkIdCard,
  checkNewPasswordConfirm,
  checkWithdrawPassword,
  idCardCheckChar,
} from '../../src/shared/validation';
import { localDay } from '../../server/platform/rate-limit';
import { loadIdentitySettings } from '../../server/config';

const TODAY = new Date(Date.UTC(2025, 2, 12));

describe('ID numbers (GB 11643: ISO 7064 MOD 11-2 check character and a real birth date)', () => {
  it('computes the check character of the standard example', () => {
    expect(idCardCheckChar('11010519491231002')).toBe('X');
    expect(idCardCheckChar('44052418800101001')).toBe('4');
  });

  it('accepts 18-digit numbers with the right check character, x in either case', () => {
    expect(checkIdCard('11010519491231002X', TODAY)).toBeNull();
    expect(checkIdCard('11010519491231002x', TODAY)).toBeNull();
    expect(checkIdCard('440524188001010014', TODAY)).toBeNull();
  });

  it('refuses a wrong check character', () => {
    expect(checkIdCard('110105194912310021', TODAY)).toBe('idCardCheckDigit');
    expect(checkIdCard('440524188001010015', TODAY)).toBe('idCardCheckDigit');
  });

  it('refuses birth dates that do not exist or lie in the future', () => {
    // 1949-02-30, 2023-02-29, month 13, day 00, and 2030-01-01 (after TODAY).
    const withCheck = (first17: string) => first17 + idCardCheckChar(first17);
    expect(checkIdCard(withCheck('11010519490230002'), TODAY)).toBe('idCardBirthDate');
    expect(checkIdCard(withCheck('11010520230229002'), TODAY)).toBe('idCardBirthDate');
    expect(checkIdCard(withCheck('11010519491331002'), TODAY)).toBe('idCardBirthDate');
    expect(checkIdCard(withCheck('11010519491200002'), TODAY)).toBe('idCardBirthDate');
    expect(checkIdCard(withCheck('11010520300101002'), TODAY)).toBe('idCardBirthDate');
    expect(checkIdCard(withCheck('11010520240229002'), TODAY)).toBeNull();
  });

  it('accepts 15-digit numbers with a real 19YY birth date', () => {
    expect(checkIdCard('110105491231002', TODAY)).toBeNull();
    expect(checkIdCard('110105490231002', TODAY)).toBe('idCardBirthDate');
  });

  it('refuses other shapes', () => {
    for (const bad of ['', '1101051949123100', '11010519491231002Y', 'abc', '1'.repeat(19)]) {
      expect(checkIdCard(bad, TODAY)).toBe('idCardInvalid');
    }
  });
});

describe('password rules of the identity calls', () => {
  it('says "the new password is inconsistent" when the confirmation differs', () => {
    expect(checkNewPasswordConfirm('abc123', 'abc124')).toBe('newPasswordInconsistent');
    expect(checkNewPasswordConfirm('abc123', ' abc 123 ')).toBeNull();
    expect(checkNewPasswordConfirm('abc123', ' ')).toBe('passwordConfirmEmpty');
  });

  it('takes 6 digits as a withdrawal password', () => {
    expect(checkWithdrawPassword('123456')).toBeNull();
    expect(checkWithdrawPassword('')).toBe('passwordEmpty');
    for (const bad of ['12345', '1234567', '12345a', '１２３４５６']) {
      expect(checkWithdrawPassword(bad)).toBe('withdrawPasswordInvalid');
    }
  });
});

describe('the local day of the SMS caps', () => {
  it('turns at midnight in the station time zone, not at UTC midnight', () => {
    // 2025-03-12 15:59:59 UTC is 23:59:59 in Shanghai; one second later is the next local day.
    const before = Date.UTC(2025, 2, 12, 15, 59, 59);
    expect(localDay(before + 1000, 'Asia/Shanghai')).toBe(localDay(before, 'Asia/Shanghai') + 1);
    expect(localDay(Date.UTC(2025, 2, 12, 0, 0, 1), 'UTC')).toBe(localDay(Date.UTC(2025, 2, 12, 23), 'UTC'));
  });
});

describe('identity settings', () => {
  it('has defaults: invitation optional, 10 codes per phone and 500 per address a day, 5 failures lock 15 min', () => {
    expect(loadIdentitySettings({})).toEqual({
      inviteCode: 'optional',
      smsDailyPerPhone: 10,
      smsDailyPerIp: 500,
      loginMaxFailures: 5,
      loginPhoneFailures: 20,
      loginPerIpHourly: 300,
      checkPhonePerIpHourly: 120,
      checkPhonePerPhoneHourly: 30,
      loginWindowMinutes: 15,
      loginLockMinutes: 15,
      regionHeader: null,
      blockedRegions: [],
      corsOrigins: [],
      uploadsPerDay: 20,
      uploadPendingBytes: 30 * 1024 * 1024,
      uploadOrphanHours: 24,
      vipPermissionBy: 'reviewer',
    });
  });

  it('reads every variable', () => {
    expect(
      loadIdentitySettings({
        INVITE_CODE: 'required',
        SMS_DAILY_PER_PHONE: '3',
        SMS_DAILY_PER_IP: '40',
        LOGIN_MAX_FAILURES: '7',
        LOGIN_PHONE_FAILURES: '50',
        LOGIN_PER_IP_HOURLY: '90',
        CHECK_PHONE_PER_IP_HOURLY: '30',
        CHECK_PHONE_PER_PHONE_HOURLY: '12',
        LOGIN_WINDOW_MIN: '30',
        LOGIN_LOCK_MIN: '60',
        REGION_HEADER: 'CF-IPCountry',
        BLOCKED_REGIONS: 'kp, ir',
        CORS_ORIGINS: 'https://a.example, http://localhost:5173',
        UPLOADS_PER_DAY: '5',
        UPLOAD_PENDING_MB: '12',
        UPLOAD_ORPHAN_HOURS: '36',
        VIP_PERMISSION: 'operator',
      }),
    ).toEqual({
      inviteCode: 'required',
      smsDailyPerPhone: 3,
      smsDailyPerIp: 40,
      loginMaxFailures: 7,
      loginPhoneFailures: 50,
      loginPerIpHourly: 90,
      checkPhonePerIpHourly: 30,
      checkPhonePerPhoneHourly: 12,
      loginWindowMinutes: 30,
      loginLockMinutes: 60,
      regionHeader: 'cf-ipcountry',
      blockedRegions: ['KP', 'IR'],
      corsOrigins: ['https://a.example', 'http://localhost:5173'],
      uploadsPerDay: 5,
      uploadPendingBytes: 12 * 1024 * 1024,
      uploadOrphanHours: 36,
      vipPermissionBy: 'operator',
    });
  });

  it('refuses bad values, naming the variable', () => {
    expect(() => loadIdentitySettings({ INVITE_CODE: 'sometimes' })).toThrow(/INVITE_CODE/);
    expect(() => loadIdentitySettings({ LOGIN_MAX_FAILURES: '0' })).toThrow(/LOGIN_MAX_FAILURES/);
    expect(() => loadIdentitySettings({ REGION_HEADER: 'x y' })).toThrow(/REGION_HEADER/);
    expect(() => loadIdentitySettings({ CORS_ORIGINS: 'javascript:alert(1)' })).toThrow(/CORS_ORIGINS/);
    expect(() => loadIdentitySettings({ CORS_ORIGINS: '*' })).toThrow(/CORS_ORIGINS/);
  });
});

import { describe, expect, it } from 'vitest';
import {
  checkBankCard,
  checkChineseName,
  checkIdCard,
  checkLots,
  checkPassword,
  checkPasswordConfirm,
  checkPhone,
  checkSmsCode,
  maskPhone,
  normalizePassword,
} from '../../src/shared/validation';

describe('spec §5 validation rules', () => {
  it('accepts exactly 11 digits as a phone number', () => {
    expect(checkPhone('13800000000')).toBeNull();
    expect(checkPhone('')).toBe('phoneEmpty');
    expect(checkPhone(undefined)).toBe('phoneEmpty');
    expect(checkPhone('1380000000')).toBe('phoneInvalid');
    expect(checkPhone('138000000001')).toBe('phoneInvalid');
    expect(checkPhone('1380000000a')).toBe('phoneInvalid');
  });

  it('accepts 6–12 letters, digits and !@#$%^&* as a password, whitespace stripped', () => {
    expect(checkPassword('abc123')).toBeNull();
    expect(checkPassword('Abc!@#$%^&*1')).toBeNull();
    expect(checkPassword(' abc 123 ')).toBeNull();
    expect(normalizePassword(' ab c\t123\n')).toBe('abc123');
    expect(checkPassword('')).toBe('passwordEmpty');
    expect(checkPassword('   ')).toBe('passwordEmpty');
    expect(checkPassword('abc12')).toBe('passwordInvalid');
    expect(checkPassword('abcdefghi1234')).toBe('passwordInvalid');
    expect(checkPassword('abc123(')).toBe('passwordInvalid');
    expect(checkPassword('密码密码密码')).toBe('passwordInvalid');
  });

  it('requires the confirmation to match', () => {
    expect(checkPasswordConfirm('abc123', 'abc123')).toBeNull();
    expect(checkPasswordConfirm('abc123', ' abc123')).toBeNull();
    expect(checkPasswordConfirm('abc123', '')).toBe('passwordConfirmEmpty');
    expect(checkPasswordConfirm('abc123', 'abc124')).toBe('passwordsDiffer');
  });

  it('takes a 6-digit SMS code', () => {
    expect(checkSmsCode('123456')).toBeNull();
    expect(checkSmsCode('')).toBe('codeEmpty');
    expect(checkSmsCode('12345')).toBe('codeInvalid');
  });

  it('takes 1 to the maximum whole lots', () => {
    expect(checkLots(1, 100)).toBeNull();
    expect(checkLots('100', 100)).toBeNull();
    expect(checkLots('', 100)).toBe('lotsEmpty');
    expect(checkLots(null, 100)).toBe('lotsEmpty');
    expect(checkLots('  ', 100)).toBe('lotsEmpty');
    expect(checkLots(Number.NaN, 100)).toBe('lotsNotNumber');
    expect(checkLots('abc', 100)).toBe('lotsNotNumber');
    expect(checkLots(0, 100)).toBe('lotsBelowOne');
    expect(checkLots(-3, 100)).toBe('lotsBelowOne');
    expect(checkLots(101, 100)).toBe('lotsAboveMax');
    expect(checkLots(1.5, 100)).toBe('lotsNotWhole');
  });

  it('checks names, ID numbers and bank cards by their patterns', () => {
    expect(checkChineseName('张三')).toBeNull();
    expect(checkChineseName('Zhang San')).toBe('nameInvalid');
    expect(checkIdCard('11010519491231002X')).toBeNull();
    expect(checkIdCard('110105491231002')).toBeNull();
    expect(checkIdCard('1101051949123100')).toBe('idCardInvalid');
    expect(checkBankCard('6222020200112233445')).toBeNull();
    expect(checkBankCard('0222020200112233')).toBe('bankCardInvalid');
    expect(checkBankCard('62220202001')).toBe('bankCardInvalid');
  });

  it('masks the middle of a phone number', () => {
    expect(maskPhone('13800001234')).toBe('138****1234');
  });
});

import { describe, expect, it } from 'vitest';
import type { KycStatus } from '../../src/shared/api/types';
import { kycGateOpen, passesKycGate, type KycHolder } from '../../src/shared/kyc-gate';

const STATUSES: KycStatus[] = ['none', 'pending', 'passed', 'failed'];

function holder(kycStatus: KycStatus, realName: string | null = '张三'): KycHolder {
  return { kycStatus, realName };
}

describe('the KYC gate', () => {
  it('lets a trading call through only after a passed review when the station needs KYC for orders', () => {
    for (const status of STATUSES) {
      expect(passesKycGate(holder(status), 'trading', true)).toBe(status === 'passed');
    }
  });

  it('opens trading calls to every user when the station runs with ORDERS_NEED_KYC=false', () => {
    expect(kycGateOpen('trading', false)).toBe(true);
    for (const status of STATUSES) {
      expect(passesKycGate(holder(status, null), 'trading', false)).toBe(true);
    }
  });

  it('does not ask a trading call for the real name', () => {
    expect(passesKycGate(holder('passed', null), 'trading', true)).toBe(true);
  });

  it('always gates a payee call (bank card, withdrawal), whatever ORDERS_NEED_KYC says', () => {
    for (const ordersNeedKyc of [true, false]) {
      expect(kycGateOpen('payee', ordersNeedKyc)).toBe(false);
      for (const status of STATUSES) {
        expect(passesKycGate(holder(status), 'payee', ordersNeedKyc)).toBe(status === 'passed');
      }
    }
  });

  it('refuses a payee call when the passed review left no real name to pay', () => {
    expect(passesKycGate(holder('passed', null), 'payee', true)).toBe(false);
    expect(passesKycGate(holder('passed', null), 'payee', false)).toBe(false);
  });

  it('keeps the gate shut for trading calls when the station needs KYC for orders', () => {
    expect(kycGateOpen('trading', true)).toBe(false);
  });
});

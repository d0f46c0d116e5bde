/**
 * The KYC gate (spec §6: real-name verification gates ordering and withdrawal; spec §5: KYC is required
 * before placing orders and withdrawing). The station may open paper trading before KYC
 * (ORDERS_NEED_KYC=false, ARCHITECTURE.md); binding a bank card and withdrawing never open, and also need
 * the verified real name, because the card holder and the withdrawal's payee are that name.
 */
import type { KycStatus } from './api/types';

/** What a call is gated as: a trading call (an order, a subscription, an allocation) or a payee call. */
export type KycGatedCall = 'trading' | 'payee';

export interface KycHolder {
  kycStatus: KycStatus;
  realName: string | null;
}

/** Whether `call` passes without any KYC on this station, whoever the user is. */
export function kycGateOpen(call: KycGatedCall, ordersNeedKyc: boolean): boolean {
  return call === 'trading' && !ordersNeedKyc;
}

/** Whether `user` may make `call`; when not, the station answers KYC_REQUIRED. */
export function passesKycGate(user: KycHolder, call: KycGatedCall, ordersNeedKyc: boolean): boolean {
  if (kycGateOpen(call, ordersNeedKyc)) return true;
  if (user.kycStatus !== 'passed') return false;
  return call === 'trading' || user.realName !== null;
}

/**
 * The station's one KYC gate: reads the user and applies the rule of src/shared/kyc-gate.ts. Every gated
 * call (orders, new shares, block trades and VIP picks, fund allocation, the bank card, withdrawals) goes
 * through it.
 */
import { kycGateOpen, passesKycGate, type KycGatedCall } from '../../src/shared/kyc-gate';
import { prepared, AppError, type Station } from '../platform';

// Prepared: the gate sits on the order path (server/platform/db/prepared.ts).
const selectKycHolder = prepared<{ userId: number }>()((db, p) =>
  db.selectFrom('users').select(['kyc_status', 'real_name']).where('id', '=', p.userId),
);

/** Throws KYC_REQUIRED unless the user may make `call`; reads nothing when the gate is open. */
export async function requireKyc(station: Station, userId: number, call: KycGatedCall): Promise<void> {
  const { ordersNeedKyc } = station.config;
  if (kycGateOpen(call, ordersNeedKyc)) return;
  const [user] = await selectKycHolder.rows(station.db, { userId });
  const holder = user && { kycStatus: user.kyc_status, realName: user.real_name };
  if (!holder || !passesKycGate(holder, call, ordersNeedKyc)) throw new AppError('KYC_REQUIRED');
}

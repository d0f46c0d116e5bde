/**
 * The JSON-schema pieces the fund routes share: fund products and trades, allocations and their
 * sub-accounts, and the input fields they take.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AllocationStatus, FundType } from '../../../src/shared/api/funds';
import { checkLots } from '../../../src/shared/validation';
import { lotsField, ref, type FieldRule } from '../../platform';

export const num = { type: 'number' } as const;
export const int = { type: 'integer' } as const;
export const str = { type: 'string' } as const;
export const nullable = (type: 'number' | 'string' | 'integer') => ({ type: [type, 'null'] }) as const;

export function object(properties: Record<string, unknown>, description?: string) {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  } as const;
}

export const FUND_TYPES = [
  'equity',
  'mixed',
  'bond',
  'index',
  'money',
] as const satisfies readonly FundType[];
export const ALLOCATION_STATUSES = [
  'review',
  'trading',
  'expired',
  'ended',
] as const satisfies readonly AllocationStatus[];

export const fundCodeField = {
  type: 'string',
  maxLength: 16,
  pattern: '^[0-9]{6}$',
  description: '6 digits',
} as const;
export const moneyField = {
  type: 'number',
  minimum: -1e12,
  maximum: 1e12,
  description: 'major units, 2 decimals',
} as const;
export const idField = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;

export const fundProduct = object({
  code: str,
  name: str,
  type: { type: 'string', enum: FUND_TYPES },
  riskLevel: { ...int, description: '1 (lowest) to 5' },
  nav: { ...num, description: "the day's NAV, 4 decimals" },
  navDate: { ...str, description: 'yyyy-MM-dd: the trading day of the NAV' },
  dayChangePct: { ...num, description: 'against the previous trading day, a fraction' },
  yearReturnPct: { ...num, description: 'over the last 250 trading days, a fraction' },
  purchaseFeeRate: num,
  redeemFeeRate: { ...num, description: 'on units held at least shortHoldDays' },
  shortHoldDays: { ...int, description: 'units held fewer calendar days pay shortHoldRedeemFeeRate (FIFO)' },
  shortHoldRedeemFeeRate: { ...num, description: 'at least 1.5% under 7 days (CSRC), money funds exempt' },
  minPurchase: num,
});
export const fundTrade = object({
  id: int,
  code: str,
  name: str,
  side: { type: 'string', enum: ['buy', 'sell'] },
  units: num,
  nav: num,
  amount: { ...num, description: 'buy: paid, fee included; sell: received, fee deducted' },
  fee: num,
  createdAt: int,
});
export const allocation = object({
  id: int,
  typeCode: { type: 'string', enum: ['days', 'months'] },
  status: {
    type: 'string',
    enum: ALLOCATION_STATUSES,
    description: 'under review → trading → expired | ended',
  },
  endReason: { type: ['string', 'null'], enum: ['expiry', 'user', 'liquidation', 'rejected', null] },
  margin: num,
  multiple: int,
  allocated: { ...num, description: 'margin × multiple' },
  days: { ...int, description: 'the period in trading days' },
  dailyFeeRate: num,
  dailyFee: { ...num, description: 'management fee per trading day: allocated × daily rate' },
  feesCharged: num,
  warningValue: { ...num, description: 'total assets at the warning line (allocated × line)' },
  liquidationValue: { ...num, description: 'total assets at the liquidation line' },
  createdAt: int,
  startedAt: nullable('integer'),
  expiresAt: nullable('integer'),
  endedAt: nullable('integer'),
  returned: { ...nullable('number'), description: 'what went back to the main account at the end' },
  rejectReason: nullable('string'),
});
export const subAccount = object({
  allocation,
  cash: num,
  marketValue: num,
  totalAssets: num,
  pnl: { ...num, description: 'total assets − (margin + allocated); after the end: returned − margin' },
  riskRatio: { ...nullable('number'), description: 'total assets ÷ allocated, while trading' },
  warningLine: { ...num, description: "the allocation's warning line (a risk ratio)" },
  liquidationLine: { ...num, description: "the allocation's liquidation line (a risk ratio)" },
  positions: { type: 'array', items: ref('Position') },
});

/** The quantity messages of spec §5 for a lots field that failed its schema. */
export const lotsRule: FieldRule = (raw) =>
  checkLots(typeof raw === 'number' || typeof raw === 'string' ? raw : undefined, lotsField.maximum) ??
  (raw === undefined || typeof raw === 'number' || typeof raw === 'string' ? null : 'lotsNotWhole');

/** The signed-in user's id, for routes behind the session hook. */
export type SessionUserId = (request: FastifyRequest) => number;

export function sessionUserIdOf(app: FastifyInstance): SessionUserId {
  return (request) => app.auth.session(request).userId;
}

/** Tables of funds and fund allocation (migration 0009-funds). Money in minor units; times epoch ms. */
import type { Generated } from 'kysely';
import type { AllocationEndReason, AllocationStatus } from '../../../src/shared/api/funds';

export interface FundHoldingsTable {
  user_id: number;
  fund_code: string;
  /** Hundredths of a fund unit. */
  units: number;
  /** Minor units: what the held units cost, fees included. */
  cost: number;
  updated_at: number;
}

export interface FundTradesTable {
  id: Generated<number>;
  user_id: number;
  fund_code: string;
  side: 'buy' | 'sell';
  units: number;
  nav: number;
  /** Buy: paid, fee included; sell: received, fee deducted. */
  amount: number;
  fee: number;
  created_at: number;
}

export interface AllocationsTable {
  id: Generated<number>;
  user_id: number;
  type_code: 'days' | 'months';
  status: AllocationStatus;
  end_reason: AllocationEndReason | null;
  margin: number;
  multiple: number;
  allocated: number;
  days: number;
  daily_fee_rate: number;
  daily_fee: number;
  warning_line: number;
  liquidation_line: number;
  /** Trading days whose fee is done (charged or owed). */
  fee_days: Generated<number>;
  fees_charged: Generated<number>;
  fees_owed: Generated<number>;
  /** The sub-account, from approval on. */
  account_id: number | null;
  warned_at: number | null;
  reject_reason: string | null;
  decided_by: string | null;
  returned: number | null;
  created_at: number;
  started_at: number | null;
  expires_at: number | null;
  ended_at: number | null;
}

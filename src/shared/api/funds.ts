/**
 * The calls and shapes of funds (fund products at a simulated daily NAV) and of fund allocation (leveraged
 * capital for a period, traded in a sub-account). Money in major units, rates as fractions, times in ms.
 */
import type { Page, Position } from './types';

export type FundType = 'equity' | 'mixed' | 'bond' | 'index' | 'money';

export interface FundProduct {
  code: string;
  name: string;
  type: FundType;
  /** 1 (lowest) … 5 (highest). */
  riskLevel: number;
  /** The day's NAV (4 decimals) and the trading day it is for (yyyy-MM-dd). */
  nav: number;
  navDate: string;
  /** Change against the previous trading day's NAV, a fraction. */
  dayChangePct: number;
  /** Change over the last 250 trading days, a fraction. */
  yearReturnPct: number;
  purchaseFeeRate: number;
  redeemFeeRate: number;
  /** Units held under this many days (first bought, first redeemed) pay shortHoldRedeemFeeRate instead. */
  shortHoldDays: number;
  shortHoldRedeemFeeRate: number;
  /** The smallest purchase, major units. */
  minPurchase: number;
}

export interface FundDetail {
  fund: FundProduct;
  /** [time (the day's 00:00 UTC), nav] rows, oldest first. */
  history: [number, number][];
}

export interface FundHolding {
  code: string;
  name: string;
  /** Units with 2 decimals. */
  units: number;
  nav: number;
  marketValue: number;
  /** What the held units cost (fees included). */
  cost: number;
  pnl: number;
}

export interface FundHoldings {
  holdings: FundHolding[];
  totalValue: number;
}

export interface FundTrade {
  id: number;
  code: string;
  name: string;
  side: 'buy' | 'sell';
  units: number;
  nav: number;
  /** Buy: paid (fee included); sell: received (fee deducted). */
  amount: number;
  fee: number;
  createdAt: number;
}

export type AllocationStatus = 'review' | 'trading' | 'expired' | 'ended';
export type AllocationEndReason = 'expiry' | 'user' | 'liquidation' | 'rejected';

/** A kind of allocation (getFundsTypeList.do): its period range, multiples and daily fee rate. */
export interface AllocationType {
  code: 'days' | 'months';
  minDays: number;
  maxDays: number;
  multiples: number[];
  dailyFeeRate: number;
}

export interface AllocationSetting {
  /** Margin limits and step, major units. */
  minMargin: number;
  maxMargin: number;
  marginStep: number;
  warningLine: number;
  liquidationLine: number;
  /** Seconds until the station's reviewer decides an application. */
  reviewDelaySeconds: number;
  /** The markets a sub-account trades. */
  markets: ('a' | 'star')[];
}

export interface Allocation {
  id: number;
  typeCode: AllocationType['code'];
  status: AllocationStatus;
  endReason: AllocationEndReason | null;
  margin: number;
  multiple: number;
  allocated: number;
  days: number;
  dailyFeeRate: number;
  dailyFee: number;
  /** Management fees charged so far. */
  feesCharged: number;
  warningValue: number;
  liquidationValue: number;
  createdAt: number;
  startedAt: number | null;
  expiresAt: number | null;
  endedAt: number | null;
  /** What went back to the main account at the end. */
  returned: number | null;
  rejectReason: string | null;
}

export interface SubAccount {
  allocation: Allocation;
  cash: number;
  marketValue: number;
  totalAssets: number;
  /** totalAssets − (margin + allocated). */
  pnl: number;
  riskRatio: number | null;
  /** The allocation's own lines (set when it was made): R below warningLine warns, at liquidationLine closes. */
  warningLine: number;
  liquidationLine: number;
  positions: Position[];
}

interface PageIn {
  pageNum?: number;
  pageSize?: number;
}

export interface FundsCalls {
  'GET /api/fund/list.do': { in: { type?: FundType }; out: FundProduct[] };
  'GET /api/fund/detail.do': { in: { code: string; days?: number }; out: FundDetail };
  'POST /user/fund/buy.do': { in: { code: string; amount: number; requestId: string }; out: FundTrade };
  'POST /user/fund/sell.do': { in: { code: string; units: number; requestId: string }; out: FundTrade };
  'GET /user/fund/holdings.do': { in: Record<string, never>; out: FundHoldings };
  'GET /user/fund/trades.do': { in: PageIn; out: Page<FundTrade> };
  'GET /user/funds/getFundsSetting.do': { in: Record<string, never>; out: AllocationSetting };
  'GET /user/funds/getFundsTypeList.do': { in: Record<string, never>; out: AllocationType[] };
  'POST /user/funds/addFundsApply.do': {
    in: {
      typeCode: AllocationType['code'];
      margin: number;
      multiple: number;
      days: number;
      requestId: string;
    };
    out: Allocation;
  };
  'GET /user/funds/getUserApplyList.do': {
    in: PageIn & { status?: AllocationStatus };
    out: Page<Allocation>;
  };
  /** The sub-account of `applyId`, or of the user's current allocation (null when there is none). */
  'GET /user/funds/getUserSubaccount.do': { in: { applyId?: number }; out: SubAccount | null };
  'POST /user/funds/buyFunds.do': {
    in: { applyId: number; code: string; lots: number; requestId: string };
    out: Position;
  };
  'POST /user/funds/sellFunds.do': {
    in: { applyId: number; positionId: number; lots?: number; requestId: string };
    out: Position;
  };
  /** The sub-account's open or closed positions. */
  'GET /user/funds/fundsList.do': {
    in: PageIn & { applyId: number; state?: 'open' | 'closed' };
    out: Page<Position>;
  };
  /** Ends a trading allocation early: closes its positions at market and repays. */
  'POST /user/funds/endFundsApply.do': { in: { applyId: number; requestId: string }; out: Allocation };
}

/**
 * Block trades and VIP picks (spec §7 "New shares and block trades", DOMAIN.md): their shapes
 * and calls. The calls join the one typed map of calls.ts by interface merging, so the app's client and
 * the station's routes both refer to them like to every other call.
 */
import type { PageQuery } from './calls';
import type { Market, Page, Position } from './types';

/** Where an offer or a pick stands at the time of the answer. */
export type BlockTradeOfferStatus = 'upcoming' | 'open' | 'closed';
export type VipPickStatus = 'upcoming' | 'open' | 'closed' | 'soldOut';

/** A block-trade offer of the day: a discount to the current price, a minimum size and a time window. */
export interface BlockTradeOffer {
  code: string;
  name: string;
  market: Market;
  /** The instrument's price now. */
  currentPrice: number;
  /** What one share costs in this offer now: the current price less the discount, on the tick. */
  price: number;
  /** A fraction: 0.05 is 5% below the current price. */
  discount: number;
  /** The fewest lots one purchase may take. */
  minLots: number;
  /** The most lots one purchase may take. */
  maxLots: number;
  /** Shares in one lot. */
  lotSize: number;
  /** The leverages a purchase may use. */
  leverages: number[];
  opensAt: number;
  closesAt: number;
  status: BlockTradeOfferStatus;
}

/** One block-trade purchase and the position it made (T+1). */
export interface BlockTradeRecord {
  id: number;
  code: string;
  name: string;
  market: Market;
  lots: number;
  shares: number;
  /** The offer price paid per share. */
  price: number;
  /** The instrument's price when bought. */
  marketPrice: number;
  discount: number;
  leverage: number;
  /** Price × shares. */
  amount: number;
  fee: number;
  createdAt: number;
  position: Position;
}

/** A VIP allocation ("chip grabbing"): lots of a stock at a set price, first come first served. */
export interface VipPick {
  id: number;
  code: string;
  name: string;
  market: Market;
  /** The set price per share. */
  price: number;
  currentPrice: number;
  totalLots: number;
  soldLots: number;
  remainingLots: number;
  /** The most lots one user may take of this allocation. */
  maxLotsPerUser: number;
  lotSize: number;
  opensAt: number;
  closesAt: number;
  status: VipPickStatus;
}

/** One VIP purchase and the position it made (T+1). */
export interface VipPurchase {
  id: number;
  pickId: number;
  code: string;
  name: string;
  lots: number;
  shares: number;
  price: number;
  amount: number;
  fee: number;
  createdAt: number;
  position: Position;
}

declare module './calls' {
  interface ApiCalls {
    /** Today's block-trade offers (public). */
    'GET /api/stock/getDzList.do': { in: { keyword?: string }; out: BlockTradeOffer[] };
    /** Buys lots of an open offer at its price: a position, T+1. */
    'POST /user/buyStockDz.do': {
      in: { code: string; lots: number; leverage?: number; requestId: string };
      out: BlockTradeRecord;
    };
    /** The user's block-trade purchases, newest first. */
    'GET /user/buyStockDzList.do': { in: PageQuery; out: Page<BlockTradeRecord> };
    /** Today's VIP allocations (public); `keyword` matches code, name or pinyin initials. */
    'GET /api/stock/getVipList.do': { in: { keyword?: string }; out: VipPick[] };
    'GET /api/stock/getVipByCode.do': { in: { code: string }; out: VipPick };
    /** Takes lots of a VIP allocation at its set price: needs the VIP permission (NO_PERMISSION). */
    'POST /user/buyVipQc.do': {
      in: { code: string; lots: number; requestId: string };
      out: VipPurchase;
    };
    /** The user's VIP purchases, newest first. */
    'GET /user/vipQcList.do': { in: PageQuery; out: Page<VipPurchase> };
  }
}

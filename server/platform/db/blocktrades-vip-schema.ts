/**
 * The tables of block trades and VIP picks (migration 0008-blocktrades-vip). Offers are generated from
 * MARKET_SEED and not stored; a VIP allocation is stored because its sold lots are state every buyer shares.
 */
import type { Generated } from 'kysely';

/** One VIP allocation of a local day (Asia/Shanghai): `day_key` and `code` identify it. */
export interface VipPicksTable {
  id: Generated<number>;
  day_key: string;
  code: string;
  price: number;
  total_lots: number;
  /** Only ever raised by a conditional update that keeps it at most total_lots. */
  sold_lots: number;
  max_lots_per_user: number;
  opens_at: number;
  closes_at: number;
  created_at: number;
}

export interface VipBuysTable {
  id: Generated<number>;
  user_id: number;
  pick_id: number;
  code: string;
  lots: number;
  price: number;
  position_id: number;
  created_at: number;
}

export interface BlockTradeBuysTable {
  id: Generated<number>;
  user_id: number;
  day_key: string;
  code: string;
  lots: number;
  /** The offer price paid per share. */
  price: number;
  market_price: number;
  discount: number;
  position_id: number;
  created_at: number;
}

/**
 * The calls of API.md as one typed map: `'METHOD path'` → what goes in and what comes back in `data`.
 * The app's client and the station's routes both refer to this map, so a change shows up on both sides.
 */
import type {
  AccountType,
  AuthResult,
  DayBars,
  DayPeriod,
  Adjust,
  LedgerEntry,
  MinuteBars,
  MinutePeriod,
  Page,
  Position,
  Quote,
  StockDetail,
  StockMarket,
  User,
  Direction,
} from './types';

export interface PageQuery {
  pageNum?: number;
  pageSize?: number;
}

export interface ApiCalls {
  'GET /api/index/ping.do': { in: Record<string, never>; out: { serverTime: number; version: string } };
  'POST /api/sms/sendRegSms.do': { in: { phone: string }; out: { ttlSeconds: number; demoCode?: string } };
  'POST /api/sms/sendForgetSms.do': { in: { phone: string }; out: { ttlSeconds: number; demoCode?: string } };
  'GET /api/user/checkPhone.do': { in: { phone: string }; out: { registered: boolean } };
  'POST /api/user/reg.do': {
    in: { phone: string; password: string; code: string; inviteCode?: string };
    out: AuthResult;
  };
  'POST /api/user/login.do': { in: { phone: string; password: string }; out: AuthResult };
  'POST /api/user/logout.do': { in: Record<string, never>; out: null };
  'GET /user/getUserInfo.do': { in: Record<string, never>; out: User };
  'GET /api/stock/getStock.do': {
    in: PageQuery & { market: StockMarket; keyword?: string; sort?: string };
    out: Page<Quote>;
  };
  'GET /api/stock/getSingleStock.do': { in: { code: string }; out: StockDetail };
  'GET /api/stock/getMinK_Echarts.do': { in: { code: string; period: MinutePeriod }; out: MinuteBars };
  'GET /api/stock/getDayK.do': {
    in: { code: string; period: DayPeriod; adjust: Adjust; before?: number; limit?: number };
    out: DayBars;
  };
  'POST /user/buy.do': {
    in: {
      code: string;
      lots: number;
      leverage: number;
      direction?: Direction;
      stopProfit?: number;
      stopLoss?: number;
      requestId: string;
    };
    out: Position;
  };
  'POST /user/sell.do': { in: { positionId: number; lots?: number; requestId: string }; out: Position };
  'GET /user/position/list.do': {
    in: PageQuery & { state: 'open' | 'closed'; market?: string };
    out: Page<Position>;
  };
  'GET /user/cash/list.do': { in: PageQuery & { account?: AccountType }; out: Page<LedgerEntry> };
}

export type CallKey = keyof ApiCalls;
export type CallIn<K extends CallKey> = ApiCalls[K]['in'];
export type CallOut<K extends CallKey> = ApiCalls[K]['out'];

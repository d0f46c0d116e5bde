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
  ExchangeRates,
  FuturesExchange,
  FuturesQuote,
  HaltEntry,
  IndexNews,
  LedgerEntry,
  LhbList,
  LimitUpEntry,
  MinuteBars,
  MinutePeriod,
  MoveCounts,
  Page,
  Position,
  ProductSetting,
  Quote,
  StockDetail,
  StockDetailWithBook,
  StockMarket,
  User,
  Direction,
  BankCard,
  BankCardInput,
} from './types';

export interface PageQuery {
  pageNum?: number;
  pageSize?: number;
}

export interface ApiCalls {
  'GET /api/index/ping.do': { in: Record<string, never>; out: { serverTime: number; version: string } };
  'GET /api/admin/getProductSetting.do': { in: Record<string, never>; out: ProductSetting };
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
  'POST /code/checkCode.do': { in: { phone: string; code: string; purpose?: 'reg' | 'forget' }; out: null };
  'POST /api/user/updatePwd.do': { in: { phone: string; code: string; password: string }; out: null };
  'POST /user/updatePwd.do': {
    in: { oldPassword: string; password: string; confirmPassword?: string };
    out: null;
  };
  'POST /user/insertWithPwd.do': { in: { withPwd: string; oldWithPwd?: string }; out: null };
  'POST /user/auth.do': {
    in: { realName: string; idNumber: string; frontImage: number; backImage: number };
    out: User;
  };
  'POST /user/bank/add.do': { in: BankCardInput; out: BankCard };
  'POST /user/bank/update.do': { in: BankCardInput; out: BankCard };
  'GET /user/bank/getBankInfo.do': { in: Record<string, never>; out: BankCard | null };
  'GET /user/getPermissions.do': { in: Record<string, never>; out: { permissions: string[] } };
  'GET /api/stock/getStock.do': {
    in: PageQuery & { market: StockMarket; keyword?: string; sort?: string };
    out: Page<Quote>;
  };
  'GET /api/stock/getSingleStock.do': { in: { code: string }; out: StockDetailWithBook };
  'GET /api/stock/getZdfNumber.do': { in: { market: StockMarket }; out: MoveCounts };
  'GET /api/stock/getStop.do': { in: { market: StockMarket }; out: HaltEntry[] };
  'GET /api/stock/getztb.do': { in: { market: StockMarket }; out: LimitUpEntry[] };
  'GET /api/stock/getTop.do': {
    in: { market: StockMarket; by?: 'gainers' | 'losers' | 'turnover'; limit?: number };
    out: Quote[];
  };
  'GET /api/stock/getSingleStockByCode.do': { in: { code: string }; out: StockDetail };
  'GET /api/site/exchange/rate': { in: Record<string, never>; out: ExchangeRates };
  'GET /api/index/queryListIndex.do': { in: { region?: 'cn' | 'hk' | 'us' }; out: Quote[] };
  'GET /api/realTime/findStock.do': { in: { keyword: string; limit?: number }; out: Quote[] };
  'GET /api/stock/getStockSort.do': {
    in: PageQuery & { market: StockMarket; field: 'changePct' | 'turnover' | 'price'; order: 'asc' | 'desc' };
    out: Page<Quote>;
  };
  'GET /api/index/querySingleIndex.do': { in: { code: string }; out: Quote };
  'GET /api/stock/getIndexDayK.do': {
    in: { code: string; period: DayPeriod; before?: number; limit?: number };
    out: DayBars;
  };
  'GET /api/stock/getIndexMinK_Echarts.do': { in: { code: string; period: MinutePeriod }; out: MinuteBars };
  'GET /api/index/queryIndexNews.do': {
    in: { code?: string; region?: 'cn' | 'hk' | 'us'; pageNum?: number; pageSize?: number };
    out: Page<IndexNews>;
  };
  'GET /api/stock/getlhb.do': { in: { market?: 'a' | 'star' }; out: LhbList };
  'GET /api/futures/queryExchange.do': {
    in: { exchange?: FuturesQuote['exchange'] };
    out: FuturesExchange[];
  };
  'GET /api/futures/querySingleMarket.do': { in: { code: string }; out: FuturesQuote };
  'GET /api/stock/getFuturesDayK.do': {
    in: { code: string; period: DayPeriod; before?: number; limit?: number };
    out: Omit<DayBars, 'adjust'>;
  };
  'GET /api/stock/getFuturesMinK_Echarts.do': { in: { code: string; period: MinutePeriod }; out: MinuteBars };
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

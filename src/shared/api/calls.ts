/**
 * The calls of API.md as one typed map: `'METHOD path'` → what goes in and what comes back in `data`.
 * The app's client and the station's routes both refer to this map, so a change shows up on both sides.
 */
import type {
  Account,
  CalendarMarket,
  TradingCalendar,
  Market,
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
  MarketState,
  MinutePeriod,
  MoveCounts,
  Page,
  Position,
  ProductSetting,
  ReplayInfo,
  IndexQuote,
  Quote,
  StockDetail,
  StockFigures,
  StockNewsDetail,
  StockNewsItem,
  StockDetailWithBook,
  StockMarket,
  User,
  Direction,
  Order,
  OrderStatus,
  UserMessagePage,
  BankCard,
  BankCardInput,
  NewsItem,
  NewsDetail,
  NoticeItem,
  NoticeDetail,
  ArticleItem,
  ArticleDetail,
  ArticleCategory,
  SitePage,
  VersionInfo,
  Banner,
  SiteInfo,
  ServiceMessage,
  Currency,
  ExchangeRecord,
  LedgerEntryType,
  Recharge,
  RechargeStatus,
  SpreadRate,
  TransferResult,
  Withdrawal,
  WithdrawalStatus,
  WithdrawInfo,
  SiteSetting,
  PayChannel,
} from './types';

import type { TradingRules } from '../trading-rules';
import type { FundsCalls } from './funds';
import type { AlertCalls } from './alerts';
import type { CompetitionCalls } from './competitions';

/** The accounts transAmt.do moves money between (all CNY). */
export type TransferAccount = 'main' | 'index' | 'newstock';
import type { ArtCategory, ContentLang, NewsType, PageKey } from '../content';

/** buyIndex.do and buyFutures.do: a market order in contracts, long or short. */
export interface ContractBuyIn {
  code: string;
  /** Contracts. */
  lots: number;
  leverage: number;
  direction: Direction;
  stopProfit?: number;
  stopLoss?: number;
  competitionId?: number;
  requestId: string;
}

export interface PageQuery {
  pageNum?: number;
  pageSize?: number;
}

export interface ApiCalls extends FundsCalls, CompetitionCalls, AlertCalls {
  'GET /api/index/ping.do': { in: Record<string, never>; out: { serverTime: number; version: string } };
  /**
   * The display settings (spec §3), the trading rules the order screens compute with, and whether the
   * registration form needs an invitation code.
   */
  'GET /api/admin/getProductSetting.do': {
    in: Record<string, never>;
    out: ProductSetting & {
      trading: TradingRules;
      registration: { inviteCodeRequired: boolean };
      replay: ReplayInfo | null;
    };
  };
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
  'GET /user/getPermissions.do': {
    in: Record<string, never>;
    out: { permissions: string[]; requested: string[] };
  };
  'POST /user/requestPermission.do': {
    in: { permission: 'vip_picks' };
    out: { status: 'granted' | 'pending' };
  };
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
  /** Whether the code's market trades now and, if not, why and when it opens next. */
  'GET /api/stock/getMarketState.do': { in: { code: string }; out: MarketState };
  /** A market's sessions, today's state and its holidays and half days for the next `days` days (60 by default). */
  'GET /api/stock/getCalendar.do': { in: { market: CalendarMarket; days?: number }; out: TradingCalendar };
  'GET /api/site/exchange/rate': { in: { source?: Currency; target?: Currency }; out: ExchangeRates };
  'GET /api/index/queryListIndex.do': { in: { region?: 'cn' | 'hk' | 'us' }; out: Quote[] };
  'GET /api/realTime/findStock.do': { in: { keyword: string; limit?: number }; out: Quote[] };
  'GET /api/stock/getStockSort.do': {
    in: PageQuery & { market: StockMarket; field: 'changePct' | 'turnover' | 'price'; order: 'asc' | 'desc' };
    out: Page<Quote>;
  };
  'GET /api/index/querySingleIndex.do': { in: { code: string }; out: IndexQuote };
  'GET /api/stock/getIndexDayK.do': {
    in: { code: string; period: DayPeriod; before?: number; limit?: number };
    out: DayBars;
  };
  'GET /api/stock/getIndexMinK_Echarts.do': { in: { code: string; period: MinutePeriod }; out: MinuteBars };
  'GET /api/index/queryIndexNews.do': {
    in: { code?: string; region?: 'cn' | 'hk' | 'us'; pageNum?: number; pageSize?: number };
    out: Page<IndexNews>;
  };
  'GET /api/stock/getStockFigures.do': { in: { code: string }; out: StockFigures };
  'GET /api/stock/getStockNews.do': {
    in: PageQuery & { code: string; lang?: ContentLang };
    out: Page<StockNewsItem>;
  };
  'GET /api/stock/getStockNewsDetail.do': { in: { id: string; lang?: ContentLang }; out: StockNewsDetail };
  'GET /api/news/getNewsList.do': {
    in: PageQuery & { type?: NewsType; lang?: ContentLang };
    out: Page<NewsItem>;
  };
  'GET /api/news/getDetail.do': { in: { id: number }; out: NewsDetail };
  'GET /api/notice/getNoticeList.do': { in: PageQuery & { lang?: ContentLang }; out: Page<NoticeItem> };
  'GET /api/notice/getDetail.do': { in: { id: number }; out: NoticeDetail };
  'GET /api/art/list.do': {
    in: PageQuery & { category?: ArtCategory; lang?: ContentLang };
    out: Page<ArticleItem>;
  };
  'GET /api/art/detail.do': { in: { id: number }; out: ArticleDetail };
  'GET /api/art/categories.do': { in: { lang?: ContentLang }; out: ArticleCategory[] };
  'GET /api/site/getPage.do': { in: { key: PageKey; lang?: ContentLang }; out: SitePage };
  'GET /api/site/getVersion.do': { in: { lang?: ContentLang }; out: VersionInfo };
  'GET /api/site/getBannerByPlat.do': { in: { plat?: 'h5' | 'app' | 'pc' }; out: Banner[] };
  'GET /api/site/getInfo.do': { in: Record<string, never>; out: SiteInfo };
  'GET /user/service/messages.do': { in: { afterId?: number }; out: ServiceMessage[] };
  'POST /user/service/send.do': { in: { content: string }; out: ServiceMessage };
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
      /** Inside a competition the user entered: its accounts and limits. */
      competitionId?: number;
      requestId: string;
    };
    out: Position;
  };
  'POST /user/sell.do': {
    in: { positionId: number; lots?: number; competitionId?: number; requestId: string };
    out: Position;
  };
  /** Index (CFD-style) and futures market orders: lots are contracts; long or short. */
  'POST /user/buyIndex.do': { in: ContractBuyIn; out: Position };
  'POST /user/buyFutures.do': { in: ContractBuyIn; out: Position };
  /** Moves `amount` of available cash into an open position's margin (ledger type top_up). */
  'POST /user/position/topUp.do': {
    in: { positionId: number; amount: number; requestId: string };
    out: Position;
  };
  /** An open position's stops become exactly these (an absent one is removed). */
  'POST /user/position/setStops.do': {
    in: { positionId: number; stopProfit?: number; stopLoss?: number; requestId: string };
    out: Position;
  };
  /** Whether the user holds the code in an open position: lots (contracts) summed over those positions. */
  'GET /user/position/exitsStock.do': {
    in: { code: string };
    out: { held: boolean; lots: number; positions: number };
  };
  /**
   * What became of a money call whose answer was lost (API.md "Idempotency"): the first answer the station
   * stored for this user's `requestId` (`call` names the call, `answer` is its `data`), or `seen: false` when
   * it has none: nothing was done, and the same call with the same `requestId` may be sent again.
   */
  'GET /user/request/outcome.do': {
    in: { requestId: string };
    out: { seen: false } | { seen: true; call: string; answer: unknown };
  };
  /** Every account back to its paper starting balance; only with no open position and no pending order. */
  'POST /user/account/reset.do': { in: { requestId: string }; out: Account[] };
  /** The watchlist (stocks and futures; not indexes), newest first. */
  'POST /user/addOption.do': { in: { code: string }; out: null };
  'POST /user/delOption.do': { in: { code: string }; out: null };
  /** The station's reorder call: codes top first, comma-separated. */
  'POST /user/option/sort.do': { in: { codes: string }; out: null };
  'GET /user/isOption.do': { in: { code: string }; out: { watched: boolean } };
  'GET /user/option/list.do': { in: Record<string, never>; out: Quote[] };
  'POST /user/addOrder.do': {
    in: {
      code: string;
      lots: number;
      leverage: number;
      triggerPrice: number;
      direction?: Direction;
      stopProfit?: number;
      stopLoss?: number;
      /** Inside a competition the user entered: its accounts and limits. */
      competitionId?: number;
      requestId: string;
    };
    out: Order;
  };
  'POST /user/order/cancel.do': { in: { orderId: number; requestId: string }; out: Order };
  'GET /user/order/list.do': {
    in: PageQuery & { status?: OrderStatus; competitionId?: number };
    out: Page<Order>;
  };
  /** The station's messages to the user (spec §7 "Cash"), newest first, with the unread count. */
  'GET /user/cash/getMessagelist.do': { in: PageQuery & { unreadOnly?: boolean }; out: UserMessagePage };
  'GET /user/cash/getUnreadCount.do': { in: Record<string, never>; out: { unread: number } };
  /** Marks one message read, or all of them without an id. */
  'POST /user/cash/readMessage.do': { in: { id?: number }; out: { unread: number } };
  'GET /user/position/list.do': {
    in: PageQuery & { state: 'open' | 'closed'; market?: Market; competitionId?: number };
    out: Page<Position>;
  };
  'GET /user/cash/list.do': {
    in: PageQuery & { account?: AccountType; type?: LedgerEntryType };
    out: Page<LedgerEntry>;
  };
  /**
   * Wallet (spec §7 "Cash" and "Exchange"): amounts in major units; the pay channels are simulated, all
   * money is play money.
   */
  'POST /user/recharge/inMoney.do': {
    in: { amount: number; channelId: number; requestId: string };
    out: Recharge;
  };
  'GET /user/recharge/list.do': { in: PageQuery & { status?: RechargeStatus }; out: Page<Recharge> };
  'GET /user/withdraw/info.do': { in: Record<string, never>; out: WithdrawInfo };
  'POST /user/withdraw/outMoney.do': {
    in: { amount: number; withdrawPassword: string; requestId: string };
    out: Withdrawal;
  };
  'POST /user/withdraw/cancel.do': { in: { id: number; reason: string }; out: Withdrawal };
  'GET /user/withdraw/list.do': { in: PageQuery & { status?: WithdrawalStatus }; out: Page<Withdrawal> };
  'POST /user/transAmt.do': {
    in: { amount: number; from: TransferAccount; to: TransferAccount; requestId: string };
    out: TransferResult;
  };
  'POST /api/user/exchange.do': {
    in: { amount: number; source: Currency; target: Currency; requestId: string };
    out: ExchangeRecord;
  };
  'GET /api/user/exchangeLog.do': { in: PageQuery; out: Page<ExchangeRecord> };
  'GET /api/user/findSpreadRateOne.do': { in: { source?: Currency; target?: Currency }; out: SpreadRate };
  'GET /api/admin/getSetting.do': { in: Record<string, never>; out: SiteSetting };
  /** The enabled (simulated) deposit channels. */
  'GET /api/site/getPayInfo.do': { in: Record<string, never>; out: PayChannel[] };
}

export type CallKey = keyof ApiCalls;
export type CallIn<K extends CallKey> = ApiCalls[K]['in'];
export type CallOut<K extends CallKey> = ApiCalls[K]['out'];

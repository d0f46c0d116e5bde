/** The shapes of API.md, used by both the app and the test station. Money in major units, times in epoch ms. */
import type { ArtCategory, ContentLang, NewsType, NoticeLevel, PageKey } from '../content';

export type Market = 'a' | 'star' | 'hk' | 'us' | 'index' | 'futures';
/** Every market, in the order the app lists them (the market tabs, the competition form). */
export const MARKETS: readonly Market[] = ['a', 'star', 'hk', 'us', 'index', 'futures'];
export type StockMarket = 'a' | 'star' | 'hk' | 'us';
export type AccountType = 'main' | 'index' | 'newstock' | 'hk' | 'us';
export type Currency = 'CNY' | 'HKD' | 'USD';
export type KycStatus = 'none' | 'pending' | 'passed' | 'failed';
export type Direction = 'long' | 'short';
export type CloseReason = 'user' | 'stop_profit' | 'stop_loss' | 'liquidation' | 'expiry';

export interface Page<T> {
  list: T[];
  total: number;
  pageNum: number;
  pageSize: number;
}

export interface Account {
  type: AccountType;
  currency: Currency;
  balance: number;
  available: number;
  frozenMargin: number;
  positionPnl: number;
  totalAssets: number;
  /** Σ today's price P&L of the open positions (Position.todayPnl). */
  todayPnl: number;
  /** The risk ratio R at which positions are closed (DOMAIN.md "Risk ratio"). */
  liquidationLine: number;
  /** The risk ratio R below which the user is warned. */
  warningLine: number;
  /** R = collateral ÷ borrowed, as the engine decides on it; null when nothing is borrowed. */
  riskRatio: number | null;
  /** What the open positions borrow (R's denominator). */
  borrowed: number;
  /** Value now of the long positions (falls with prices). */
  longValue: number;
  /** Value now of the short positions (what buying them back costs). */
  shortValue: number;
}

export interface User {
  id: number;
  /** Masked, e.g. 138****0000. */
  phone: string;
  realName: string | null;
  kycStatus: KycStatus;
  kycFailReason: string | null;
  hasBankCard: boolean;
  hasWithdrawPassword: boolean;
  inviteCode: string;
  accounts: Account[];
}

export interface AuthResult {
  token: string;
  user: User;
}

export interface Quote {
  code: string;
  name: string;
  market: Market;
  price: number;
  prevClose: number;
  open: number;
  high: number;
  low: number;
  change: number;
  changePct: number;
  volume: number;
  turnover: number;
  time: number;
}

/** One index's quote (querySingleIndex.do) with the currency its points are worth. */
export interface IndexQuote extends Quote {
  /** The index's own currency: one contract is worth points × multiplier of it (DOMAIN.md "Markets"). */
  currency: Currency;
}

export type InstrumentStatus = 'trading' | 'suspended' | 'closed';

export interface StockDetail extends Quote {
  limitUp: number | null;
  limitDown: number | null;
  lotSize: number;
  currency: Currency;
  status: InstrumentStatus;
  /** True where shares bought today can only be sold from the next trading day. */
  tPlus: boolean;
}

/** A futures product's main contract: its quote, contract terms and today's limits (price in the product's unit). */
export interface FuturesQuote extends Quote {
  exchange: 'CFFEX' | 'SHFE' | 'DCE' | 'INE' | 'CZCE';
  /** Units of the underlying per contract: the value of one contract is price × multiplier yuan. */
  multiplier: number;
  unit: string;
  tick: number;
  limitUp: number | null;
  limitDown: number | null;
  status: 'trading' | 'closed';
  /** Local Shanghai sessions, "HH:MM-HH:MM" (a night session may run past midnight). */
  sessions: string[];
}

/** One futures exchange and its products (queryExchange.do). */
export interface FuturesExchange {
  exchange: FuturesQuote['exchange'];
  name: string;
  nameEn: string;
  products: FuturesQuote[];
}

/** One trading seat of a Dragon Tiger entry: what it bought and sold of the stock that day, in yuan. */
export interface LhbSeat {
  /** The seat's name as the exchange publishes it (Chinese). */
  seat: string;
  kind: 'institution' | 'connect' | 'branch';
  buy: number;
  sell: number;
}

/** One stock on the Dragon Tiger list (getlhb.do): why it is listed and its five top buying and selling seats. */
export interface LhbEntry {
  code: string;
  name: string;
  market: 'a' | 'star';
  close: number;
  changePct: number;
  turnover: number;
  /** rise / fall: the day's close deviated by at least 7% up or down. */
  reason: 'rise' | 'fall';
  buys: LhbSeat[];
  sells: LhbSeat[];
  /** Sum of the ten seats' buys minus their sells. */
  net: number;
}

export interface LhbList {
  /** The trading day listed, YYYY-MM-DD (the last one complete). */
  date: string;
  list: LhbEntry[];
}

/** A simulated market report on one index's trading day (queryIndexNews.do), in Chinese and English. */
export interface IndexNews {
  /** Stable: the index code and the date. */
  id: string;
  code: string;
  /** When the index's market closed that day, epoch ms. */
  time: number;
  title: string;
  titleEn: string;
  summary: string;
  summaryEn: string;
  changePct: number;
  close: number;
}

/**
 * A stock's figures under its quote (getStockFigures.do): seeded shares and earnings priced at the moment.
 * Money in the stock's currency; rates are fractions.
 */
export interface StockFigures {
  code: string;
  currency: Currency;
  /** The price the figures are worked out at (the quote's at `time`). */
  price: number;
  sharesOutstanding: number;
  /** Freely traded shares: the turnover rate's base. */
  floatShares: number;
  /** price × sharesOutstanding. */
  marketCap: number;
  /** Trailing-twelve-month earnings per share; negative for a loss-maker. */
  epsTtm: number;
  /** price ÷ epsTtm; null for a loss-maker (the app says "loss"). */
  peTtm: number | null;
  /** Today's volume so far, in shares. */
  volume: number;
  /** volume ÷ floatShares. */
  turnoverRate: number;
  /** Highest high and lowest low of the day bars (unadjusted) from `windowStart` on: the last 52 weeks. */
  high52w: number;
  low52w: number;
  windowStart: number;
  /** Cash dividends per share that went ex in the last 12 months (the price history's own). */
  dividendPerShareTtm: number;
  /** dividendPerShareTtm ÷ price. */
  dividendYield: number;
  time: number;
}

/** What a stock's own news item reports: a day's close, trailing results, or an ex-dividend date. */
export type StockNewsKind = 'close' | 'results' | 'dividend';

/** One of a stock's own news items (getStockNews.do), written by the station from its simulated market. */
export interface StockNewsItem {
  /** Stable: `<code>-<yyyymmdd>-<kind>`. */
  id: string;
  code: string;
  kind: StockNewsKind;
  title: string;
  summary: string;
  source: string;
  publishedAt: number;
  lang: ContentLang;
}

export interface StockNewsDetail extends StockNewsItem {
  /** Markdown. */
  content: string;
}

/** One level of a simulated order book: [price, shares]. */
export type BookLevel = [price: number, shares: number];

/** Five levels each side, best first; empty while suspended, and no level beyond the day's limits. */
export interface OrderBook {
  bids: BookLevel[];
  asks: BookLevel[];
}

/** getSingleStock.do: the stock's detail with its simulated 5-level order book. */
export interface StockDetailWithBook extends StockDetail {
  book: OrderBook;
}

/** How many of one market's stocks rise, fall, stay flat, sit at a limit or are suspended now (getZdfNumber.do). */
export interface MoveCounts {
  market: StockMarket;
  rising: number;
  falling: number;
  flat: number;
  limitUp: number;
  limitDown: number;
  suspended: number;
  total: number;
  time: number;
}

/** The day's simulated exchange rates (/api/site/exchange/rate). */
/** Whether a market trades now (getMarketState.do): open, between two sessions, closed or on a holiday. */
export type MarketStateName = 'open' | 'lunch' | 'closed' | 'holiday';

export interface MarketState {
  state: MarketStateName;
  /** The exchange calendar's name of the holiday, when `state` is 'holiday', in the request's language. */
  holiday: string | null;
  /** Epoch ms the next session opens; null while open. */
  nextOpen: number | null;
  /** The exchange's IANA time zone (what the next open is said in). */
  timeZone: string;
}

/** The markets with a trading calendar (getCalendar.do): STAR trades on the A-share days and sessions. */
export type CalendarMarket = 'a' | 'star' | 'hk' | 'us' | 'futures';

/** Regular sessions shared by some products (futures), or by the whole market (`codes` empty). */
export interface CalendarSessions {
  codes: string[];
  /** "HH:MM-HH:MM" in the exchange's time; a night session reads "21:00-02:30". */
  sessions: string[];
  state: MarketStateName;
  /** Epoch ms the next session opens; null while open. */
  nextOpen: number | null;
}

/** A holiday run (consecutive closed weekdays of one holiday) or a half day. */
export interface CalendarDay {
  kind: 'holiday' | 'halfDay';
  /** First and last day, YYYY-MM-DD in the exchange's time zone. */
  from: string;
  to: string;
  /** The name in the request's language; null for an unnamed half day. */
  name: string | null;
  /** A half day's shortened sessions; empty for a holiday. */
  sessions: string[];
  /** Epoch ms of the first open after a holiday; a half day's own open. */
  opens: number;
  /** The exchange has not published this year yet: the days are projected. */
  provisional: boolean;
}

/** A market's trading calendar (getCalendar.do): sessions, today's state and the coming holidays. */
export interface TradingCalendar {
  market: CalendarMarket;
  /** The exchange's IANA time zone. */
  timeZone: string;
  /** Today and the last day listed, YYYY-MM-DD in the exchange's time zone. */
  today: string;
  through: string;
  /** Today's holiday in the request's language, if the market is closed for one. */
  holiday: string | null;
  sessions: CalendarSessions[];
  days: CalendarDay[];
}

export interface ExchangeRates {
  /** The UTC calendar date the rates hold for, YYYY-MM-DD. */
  date: string;
  time: number;
  /** Units of each currency for one US dollar. */
  perUsd: Record<Currency, number>;
  /** Yuan for one unit of each currency. */
  cnyPer: Record<Currency, number>;
  /** Asked with source and target: units of the target for one unit of the source (mid, no spread). */
  pair?: { source: Currency; target: Currency; rate: number };
}

/** A stock at its limit-up now (getztb.do). */
export interface LimitUpEntry {
  code: string;
  name: string;
  market: StockMarket;
  price: number;
  prevClose: number;
  changePct: number;
  turnover: number;
  /** When the price first reached the limit today (epoch ms). */
  firstReached: number;
}

/** A stock suspended now, or resumed within the last five trading days (getStop.do). */
export interface HaltEntry {
  code: string;
  name: string;
  market: StockMarket;
  state: 'suspended' | 'resumed';
  /** The first suspended day (state suspended) or the day trading resumed, as local midnight (epoch ms). */
  since: number;
  /** Trading days suspended (so far, or in total before resuming). */
  days: number;
  prevClose: number;
  price: number;
}

/** [time, open, high, low, close, volume] oldest first; intraday rows add the running average price. */
export type Bar =
  [number, number, number, number, number, number] | [number, number, number, number, number, number, number];

export type MinutePeriod = 'intraday' | '1' | '5' | '30' | '60';
export type DayPeriod = 'day' | 'week' | 'month';
export type Adjust = 'none' | 'forward' | 'backward';

export interface MinuteBars {
  code: string;
  period: MinutePeriod;
  bars: Bar[];
}

export interface DayBars {
  code: string;
  period: DayPeriod;
  adjust: Adjust;
  bars: Bar[];
}

export interface Position {
  id: number;
  code: string;
  name: string;
  market: Market;
  /** The currency of every amount (its account's); prices are in the instrument's own. */
  currency: Currency;
  /**
   * Units of `currency` per unit of the price's currency, fixed at the open: every value is price × shares ×
   * fxRate (1 unless an index is quoted in another currency, e.g. HSI in HKD booked in the CNY index account).
   */
  fxRate: number;
  direction: Direction;
  lots: number;
  shares: number;
  leverage: number;
  openPrice: number;
  currentPrice: number;
  margin: number;
  marketValue: number;
  buyFee: number;
  sellFee: number;
  stampDuty: number;
  deferredFee: number;
  /** buyFee + sellFee + stampDuty + deferredFee charged so far. */
  fees: number;
  /** The price part of the P&L, before fees. */
  pricePnl: number;
  /** Net: pricePnl − fees, what the user actually made or lost (DOMAIN.md "P&L"). */
  pnl: number;
  /** pnl ÷ margin, a fraction. */
  yield: number;
  /**
   * Today's price P&L of an open position: the move since the previous close (since the open price if it
   * was opened today) × shares, before fees; null once closed.
   */
  todayPnl: number | null;
  stopProfit: number | null;
  stopLoss: number | null;
  liquidationPrice: number | null;
  openedAt: number;
  closedAt: number | null;
  closePrice: number | null;
  closeReason: CloseReason | null;
  /** Epoch ms from which the position may be sold (T+1 for A-shares). */
  sellableFrom: number;
}

export type OrderStatus = 'pending' | 'filled' | 'cancelled' | 'rejected';

export interface Order {
  id: number;
  code: string;
  name: string;
  lots: number;
  leverage: number;
  triggerPrice: number;
  status: OrderStatus;
  rejectReason: string | null;
  positionId: number | null;
  createdAt: number;
  updatedAt: number;
  market: Market;
  direction: Direction;
  stopProfit: number | null;
  stopLoss: number | null;
  /** What the order holds of the account's available funds while pending (margin + fees at the trigger). */
  frozen: number;
  /** The price it filled at (a buy at or below the trigger, a sale at or above it); null until filled. */
  fillPrice: number | null;
  /** A day order: unfilled, it expires (cancelled, rejectReason EXPIRED) at this close. */
  expiresAt: number | null;
}

/** A message of the station to the user (fills, stops, risk warnings, liquidations), in the reader's language. */
export interface UserMessage {
  id: number;
  kind: string;
  title: string;
  content: string;
  refType: string | null;
  refId: number | null;
  createdAt: number;
  readAt: number | null;
}

export interface UserMessagePage extends Page<UserMessage> {
  /** Unread messages of the user in all. */
  unread: number;
}

export type LedgerEntryType =
  | 'opening_balance'
  /** A competition account's starting cash (competition accounts only). */
  | 'competition_funding'
  | 'buy'
  | 'buy_fee'
  | 'sell'
  | 'sell_fee'
  | 'stamp_duty'
  | 'deferred_fee'
  | 'deposit'
  | 'withdraw'
  | 'withdraw_fee'
  | 'transfer_in'
  | 'transfer_out'
  | 'exchange_in'
  | 'exchange_out'
  | 'reset'
  /** Cash moved into an open position's margin (topUp.do). */
  | 'top_up'
  | 'margin_release'
  /** A pending withdrawal's amount (fee included) back to the account: cancelled or rejected. */
  | 'withdraw_refund'
  /** Fund products bought and sold at the day's NAV (fees included). */
  | 'fund_buy'
  | 'fund_sell'
  /** Fund allocation: the margin (main → sub-account), the allocated funds, the daily management fee, the
   * repayment of the allocated funds and what is left going back to main (or the margin of a rejection). */
  | 'allocation_margin'
  | 'allocation_credit'
  | 'management_fee'
  | 'allocation_repay'
  | 'allocation_return';

export interface LedgerEntry {
  id: number;
  time: number;
  account: AccountType;
  type: LedgerEntryType;
  /** Signed: positive credits the account. */
  amount: number;
  balanceAfter: number;
  refType: string | null;
  refId: number | null;
  /** In the request's language. */
  note: string | null;
  /** What the note says as a key of the locales' `stationTexts` (noteTransferTo, …), null for a plain note. */
  noteKey: string | null;
  noteParams: Record<string, string | number> | null;
}

export type RechargeStatus = 'pending' | 'success' | 'failed' | 'cancelled';

export interface Recharge {
  id: number;
  orderNo: string;
  amount: number;
  /** The pay channel's name, as it was when the deposit was made. */
  channel: string;
  channelId: number;
  status: RechargeStatus;
  /** Why a deposit failed or was cancelled, in the reader's language. */
  failReason: string | null;
  createdAt: number;
  decidedAt: number | null;
}

export type WithdrawalStatus = 'pending' | 'paid' | 'rejected' | 'cancelled';

export interface Withdrawal {
  id: number;
  orderNo: string;
  /** What left the balance, the fee included; the card receives amount − fee. */
  amount: number;
  fee: number;
  payeeName: string;
  bankName: string;
  cardNoMasked: string;
  status: WithdrawalStatus;
  cancelReason: string | null;
  /** Why the back office rejected it, in the reader's language. */
  rejectReason: string | null;
  createdAt: number;
  decidedAt: number | null;
}

/** What withdraw/outMoney.do may take now (withdraw/info.do). */
export interface WithdrawInfo {
  /** Available cash less today's sale proceeds (sales settle T+1). */
  withdrawable: number;
  available: number;
  /** Today's sale proceeds: tradable now, withdrawable from the next trading day. */
  unsettled: number;
  feeRate: number;
  minAmount: number;
  maxAmount: number;
  /** HH:MM-HH:MM on trading days, in the wallet's time zone. */
  hours: string;
  /** Whether a withdrawal may be requested now (hours and trading day). */
  open: boolean;
}

export interface TransferResult {
  from: Account;
  to: Account;
}

export interface ExchangeRecord {
  id: number;
  source: Currency;
  target: Currency;
  sourceAmount: number;
  targetAmount: number;
  /** Units of the target currency for one unit of the source, before the spread. */
  midRate: number;
  spreadRate: number;
  createdAt: number;
}

export interface SpreadRate {
  /** The fraction of the converted amount the station keeps. */
  spreadRate: number;
  source: Currency | null;
  target: Currency | null;
  /** With a source and target: units of the target for one unit of the source, before and after the spread. */
  midRate: number | null;
  rate: number | null;
}

export interface NewsItem {
  id: number;
  title: string;
  summary: string;
  source: string;
  publishedAt: number;
  type: NewsType;
  /** The language the item is written in (the reader's, or a fallback; the app marks another language). */
  lang: ContentLang;
}

export interface NewsDetail {
  id: number;
  title: string;
  /** Markdown; the app renders it sanitised. */
  content: string;
  source: string;
  publishedAt: number;
  type: NewsType;
  lang: ContentLang;
}

/** A notice (announcement) of the station; the home screen's ticker shows the newest. */
export interface NoticeItem {
  id: number;
  title: string;
  summary: string;
  level: NoticeLevel;
  publishedAt: number;
  lang: ContentLang;
}

export interface NoticeDetail extends NoticeItem {
  content: string;
}

/** A financial-college article. */
export interface ArticleItem {
  id: number;
  category: ArtCategory;
  title: string;
  summary: string;
  publishedAt: number;
  lang: ContentLang;
}

export interface ArticleDetail extends ArticleItem {
  content: string;
}

export interface ArticleCategory {
  category: ArtCategory;
  total: number;
}

/** A site page (agreements, privacy, rules, newbie help, about, version notes) in the reader's language. */
export interface SitePage {
  key: PageKey;
  title: string;
  content: string;
  lang: ContentLang;
  updatedAt: number;
}

export interface VersionInfo {
  version: string;
  /** The release notes (Markdown) in the reader's language. */
  notes: string;
  lang: ContentLang;
  updatedAt: number;
}

/** A banner of the home screen (getBannerByPlat.do); images are paths on the station or https. */
export interface Banner {
  id: number;
  plat: string;
  title: string;
  /** The picture as PNG (or another format every browser draws): the fallback of the sources below. */
  imageUrl: string;
  linkUrl: string;
  sort: number;
  /** The same picture as AVIF, then WebP, offered before imageUrl; absent (or '') when there is none. */
  imageAvifUrl?: string;
  imageWebpUrl?: string;
  /** The picture's intrinsic size in pixels, so its place has the right shape before it loads. */
  imageWidth?: number;
  imageHeight?: number;
}

/** About the site (getInfo.do): the configured customer-service contact among others. */
export interface SiteInfo {
  name: string;
  about: string;
  companyName: string;
  servicePhone: string;
  serviceUrl: string;
  version: string;
}

/** One message of the user's thread with customer service. */
export interface ServiceMessage {
  id: number;
  sender: 'user' | 'staff';
  content: string;
  createdAt: number;
  readAt: number | null;
}

/** spec §3: the display-settings form, which product areas the app shows (getProductSetting.do). */
export interface ProductSetting {
  futuresDisplay: boolean;
  indexDisplay: boolean;
  kcStockDisplay: boolean;
  stockDisplay: boolean;
}

/**
 * A station replaying real history (MARKET_SOURCE=replay), as getProductSetting.do tells it: the app names
 * the replayed date wherever it says "test station". The replayed time runs `speed` times the wall clock
 * from `now` (when the answer was made) unless paused; `date` is `now`'s date `offsetMinutes` from UTC.
 */
export interface ReplayInfo {
  /** REPLAY_FROM: a date, or a time with its offset. */
  from: string;
  date: string;
  now: number;
  speed: number;
  paused: boolean;
  offsetMinutes: number;
}

/** The bank card as the station shows it (the number masked; the holder is the KYC name). */
export interface BankCard {
  bankName: string;
  branch: string;
  cardNoMasked: string;
  holder: string;
  createdAt: number;
}

export interface BankCardInput {
  bankName: string;
  branch: string;
  cardNo: string;
}

/** The site's general rules (getSetting.do): money in major units, hours as HH:MM-HH:MM. */
export interface SiteSetting {
  siteName: string;
  minRecharge: number;
  minWithdraw: number;
  maxWithdraw: number;
  rechargeHours: string;
  withdrawHours: string;
  withdrawFeeRate: number;
  kycRequiredForOrders: boolean;
  noticeText: string;
}

/** A simulated (play-money) deposit channel of getPayInfo.do. */
export interface PayChannel {
  id: number;
  name: string;
  /** 'bank', 'instant', or 'crypto' for the /btc channel when the station offers one. */
  type: string;
  payee: string;
  bank: string;
  account: string;
  minAmount: number;
  maxAmount: number;
  enabled: boolean;
}

/**
 * Every route of the app with what the shell needs to know about it: its translated title, which
 * chrome it shows, whether it needs a session, and its index (the order that decides whether a page
 * transition slides left or right). Paths keep the spec's spelling and case (§2): /MyList and /mylist
 * are different routes, so matching is case-sensitive everywhere.
 */
import type { Translation } from '../../../locales/i18n-types';

export type TitleKey = keyof Translation['titles'];

/** 'none': the screen draws its own top; 'title': a plain title bar; 'back': a title bar with a back arrow. */
export type HeaderKind = 'none' | 'title' | 'back';

export interface RouteMeta {
  readonly path: string;
  readonly titleKey: TitleKey;
  readonly header: HeaderKind;
  /** Shows the bottom tab bar (spec §2: routes without a header or tab bar are marked). */
  readonly tabBar: boolean;
  /**
   * spec §6: the requireAuth flag. Not a redirect (spec §4: none is enforced on the route level): while
   * logged out the shell shows a login prompt in place of the screen.
   */
  readonly requireAuth: boolean;
  /** spec §2: a back header may carry a search or a more icon, leading to another route. */
  readonly action?: HeaderAction;
}

export interface HeaderAction {
  readonly icon: 'search' | 'more';
  readonly to: string;
}

export const ROUTE_TABLE = [
  { path: '/home', titleKey: 'home', header: 'none', tabBar: true, requireAuth: false },
  {
    path: '/jijin',
    titleKey: 'fundsMarket',
    header: 'back',
    tabBar: false,
    requireAuth: false,
  },
  { path: '/college', titleKey: 'college', header: 'back', tabBar: false, requireAuth: false },
  {
    path: '/DragonTiger',
    titleKey: 'dragonTiger',
    header: 'back',
    tabBar: false,
    requireAuth: false,
  },
  { path: '/topTen', titleKey: 'topTen', header: 'back', tabBar: false, requireAuth: false },
  {
    path: '/daylimit',
    titleKey: 'dayLimit',
    header: 'back',
    tabBar: false,
    requireAuth: false,
  },
  {
    path: '/stopRecovery',
    titleKey: 'stopRecovery',
    header: 'back',
    tabBar: false,
    requireAuth: false,
  },
  {
    path: '/Subscription',
    titleKey: 'subscription',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/newsharesDetail',
    titleKey: 'newSharesDetail',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/sharerecord',
    titleKey: 'subscriptionRecords',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/zhongqianrecord',
    titleKey: 'winningRecords',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/qingchouDetail',
    titleKey: 'chipGrabDetail',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/vipdetail',
    titleKey: 'vipDetail',
    header: 'back',
    tabBar: false,
    requireAuth: true,
    action: { icon: 'search', to: '/VipSearchlist' },
  },
  { path: '/about', titleKey: 'about', header: 'back', tabBar: false, requireAuth: false },
  { path: '/buy', titleKey: 'buy', header: 'back', tabBar: false, requireAuth: true },
  { path: '/newPage', titleKey: 'news', header: 'back', tabBar: false, requireAuth: false },
  { path: '/newGg', titleKey: 'notices', header: 'back', tabBar: false, requireAuth: false },
  {
    path: '/forget',
    titleKey: 'forgotPassword',
    header: 'back',
    tabBar: false,
    requireAuth: false,
  },
  {
    path: '/openaccount',
    titleKey: 'openAccount',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/trading-list',
    titleKey: 'tradingList',
    header: 'title',
    tabBar: true,
    requireAuth: false,
    action: { icon: 'search', to: '/searchlist' },
  },
  {
    path: '/hk-list',
    titleKey: 'hkList',
    header: 'title',
    tabBar: true,
    requireAuth: false,
    action: { icon: 'search', to: '/searchlist' },
  },
  {
    path: '/indexsearchlist',
    titleKey: 'indexSearch',
    header: 'back',
    tabBar: false,
    requireAuth: false,
  },
  {
    path: '/indexlist',
    titleKey: 'indexList',
    header: 'back',
    tabBar: false,
    requireAuth: false,
    action: { icon: 'search', to: '/indexsearchlist' },
  },
  {
    // Beyond the spec's route list: each market's sessions, state and coming holidays (getCalendar.do).
    path: '/calendar',
    titleKey: 'calendar',
    header: 'back',
    tabBar: false,
    requireAuth: false,
  },
  {
    path: '/searchlist',
    titleKey: 'search',
    header: 'back',
    tabBar: false,
    requireAuth: false,
  },
  {
    path: '/searchmylist',
    titleKey: 'watchlistSearch',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/mylist',
    titleKey: 'myList',
    header: 'back',
    tabBar: false,
    requireAuth: true,
    action: { icon: 'search', to: '/searchmylist' },
  },
  { path: '/listdetail', titleKey: 'listDetail', header: 'back', tabBar: false, requireAuth: false },
  {
    path: '/listdetail2',
    // An index by default; RootLayout says "futures details" when `market=futures`.
    titleKey: 'indexDetail',
    header: 'back',
    tabBar: false,
    requireAuth: false,
  },
  {
    path: '/indexBuy',
    titleKey: 'indexBuy',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/twoBuy',
    titleKey: 'marginBuy',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/subWarehouseBuy',
    titleKey: 'subAccountBuy',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/futuresBuy',
    titleKey: 'futuresBuy',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  { path: '/inquiry', titleKey: 'inquiry', header: 'back', tabBar: false, requireAuth: true },
  {
    path: '/transfer',
    titleKey: 'transfer',
    header: 'back',
    tabBar: false,
    requireAuth: true,
    action: { icon: 'more', to: '/transferRecord' },
  },
  { path: '/warehouse', titleKey: 'warehouse', header: 'title', tabBar: true, requireAuth: true },
  {
    path: '/holdorderlist',
    titleKey: 'holdOrders',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/holdorderlist2',
    titleKey: 'holdOrders',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/sellorderlist',
    titleKey: 'closedOrders',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/sellorderlist2',
    titleKey: 'closedOrders',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/detail',
    titleKey: 'orderDetail',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  { path: '/card', titleKey: 'bankCard', header: 'back', tabBar: false, requireAuth: true },
  {
    path: '/authentication',
    titleKey: 'kyc',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  { path: '/aggre', titleKey: 'userAgreement', header: 'back', tabBar: false, requireAuth: false },
  {
    path: '/rechargeSure',
    titleKey: 'rechargeConfirm',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/rechargelist',
    titleKey: 'rechargeRecords',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/cash',
    titleKey: 'withdraw',
    header: 'back',
    tabBar: false,
    requireAuth: true,
    action: { icon: 'more', to: '/cashlist' },
  },
  {
    path: '/addCard',
    titleKey: 'addBankCard',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/cashlist',
    titleKey: 'withdrawRecords',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/setting',
    titleKey: 'settings',
    header: 'back',
    tabBar: false,
    requireAuth: false,
  },
  { path: '/agree', titleKey: 'privacyPolicy', header: 'back', tabBar: false, requireAuth: false },
  { path: '/trade', titleKey: 'tradingRules', header: 'back', tabBar: false, requireAuth: false },
  {
    path: '/alertdetail',
    titleKey: 'messageDetail',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/funds',
    titleKey: 'allocation',
    header: 'back',
    tabBar: false,
    requireAuth: true,
    action: { icon: 'more', to: '/fundslist' },
  },
  {
    path: '/days',
    titleKey: 'dailyAllocation',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/searchStock',
    titleKey: 'search',
    header: 'back',
    tabBar: false,
    requireAuth: false,
  },
  {
    path: '/notify',
    titleKey: 'notifications',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/fundslist',
    titleKey: 'myAllocation',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  { path: '/login', titleKey: 'login', header: 'back', tabBar: false, requireAuth: false },
  { path: '/register', titleKey: 'register', header: 'back', tabBar: false, requireAuth: false },
  { path: '/kline', titleKey: 'kline', header: 'back', tabBar: false, requireAuth: false },
  {
    path: '/TradingBuy',
    titleKey: 'placeOrder',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/User',
    titleKey: 'personalCenter',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/exchange',
    titleKey: 'exchange',
    header: 'back',
    tabBar: false,
    requireAuth: false,
    action: { icon: 'more', to: '/exchangeLog' },
  },
  {
    path: '/exchangeLog',
    titleKey: 'exchangeRecords',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  { path: '/account', titleKey: 'account', header: 'back', tabBar: false, requireAuth: true },
  { path: '/wallet', titleKey: 'wallet', header: 'back', tabBar: false, requireAuth: false },
  {
    path: '/transferRecord',
    titleKey: 'transferRecords',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/cashWithdrawalRecord',
    titleKey: 'withdrawRecords',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/transfers',
    titleKey: 'transfer',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/authentications',
    titleKey: 'kyc',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/bankCard',
    titleKey: 'bankCard',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  { path: '/service', titleKey: 'customerService', header: 'back', tabBar: false, requireAuth: false },
  {
    path: '/recharge',
    titleKey: 'recharge',
    header: 'back',
    tabBar: false,
    requireAuth: false,
    action: { icon: 'more', to: '/rechargelist' },
  },
  {
    path: '/withdraw',
    titleKey: 'withdraw',
    header: 'back',
    tabBar: false,
    requireAuth: false,
    action: { icon: 'more', to: '/cashWithdrawalRecord' },
  },
  { path: '/zf', titleKey: 'payment', header: 'back', tabBar: false, requireAuth: true },
  {
    path: '/btc',
    titleKey: 'cryptoDeposit',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/loginPassword',
    titleKey: 'loginPassword',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/setPassword',
    titleKey: 'withdrawPassword',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  { path: '/FundingDetails', titleKey: 'fundingDetails', header: 'back', tabBar: false, requireAuth: true },
  { path: '/setup', titleKey: 'settings', header: 'back', tabBar: false, requireAuth: false },
  {
    path: '/buyStocks',
    titleKey: 'buyStocks',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/sellStocks',
    titleKey: 'sellStocks',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  { path: '/smrz', titleKey: 'kyc', header: 'back', tabBar: false, requireAuth: true },
  {
    path: '/bankUpDate',
    titleKey: 'updateBankCard',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/sharerecordDz',
    titleKey: 'blockTradeRecords',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/VipSearchlist',
    titleKey: 'vipSearch',
    header: 'back',
    tabBar: false,
    requireAuth: true,
  },
  {
    path: '/MyList',
    titleKey: 'myList',
    header: 'title',
    tabBar: true,
    requireAuth: false,
    action: { icon: 'search', to: '/searchmylist' },
  },
  { path: '/user', titleKey: 'user', header: 'title', tabBar: true, requireAuth: false },
] as const satisfies readonly RouteMeta[];

export type AppPath = (typeof ROUTE_TABLE)[number]['path'];

/** The bottom tab bar's six areas, in order (spec §2). */
export const TAB_PATHS = [
  '/home',
  '/trading-list',
  '/hk-list',
  '/warehouse',
  '/MyList',
  '/user',
] as const satisfies readonly AppPath[];

export type TabPath = (typeof TAB_PATHS)[number];

/** Where the root path and every unknown path go (spec §2). */
export const HOME_PATH: AppPath = '/home';

export interface IndexedRouteMeta extends RouteMeta {
  readonly index: number;
}

const byPath = new Map<string, IndexedRouteMeta>(
  ROUTE_TABLE.map((meta, index): [string, IndexedRouteMeta] => [meta.path, { ...meta, index }]),
);

/**
 * The route a pathname shows, matched exactly and case-sensitively (a trailing slash is ignored, as the
 * router ignores it); undefined for an unknown path.
 */
export function findRouteMeta(pathname: string): IndexedRouteMeta | undefined {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return byPath.get(trimmed);
}

/** Slide direction of a page transition by route index: forward slides left, back slides right. */
export function slideDirection(from: string, to: string): 'left' | 'right' | 'none' {
  const a = findRouteMeta(from);
  const b = findRouteMeta(to);
  if (!a || !b || a.index === b.index) return 'none';
  return b.index > a.index ? 'left' : 'right';
}

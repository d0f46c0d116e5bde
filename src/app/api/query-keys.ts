/**
 * The keys of the app's query cache (TanStack Query) and which queries each change makes stale
 * (CONVENTIONS.md: a key factory, mutations that invalidate exactly what changed). Pure: no React, no
 * client, so the map is tested as plain data (tests/unit/app-query-keys.test.ts).
 *
 * A query's key is `[call, input, locale]`: the call key of API.md ('GET /user/position/list.do'), its
 * parameters and the language it was asked in. Invalidating `[call]` matches every input and language of
 * that call (a prefix of the key).
 */
import type { CallIn, CallKey } from '../../shared/api/calls';

/** The calls that read (GET): the ones a screen keeps in the query cache. */
export type QueryCallKey = Extract<CallKey, `GET ${string}`>;
/** The calls that change something (POST). */
export type MutationCallKey = Extract<CallKey, `POST ${string}`>;

/**
 * The key of one call with its parameters in one language. Fields left undefined are dropped, as the
 * client drops them. The language is part of every key because every answer speaks the request's
 * Accept-Language (API.md "Conventions"): instrument names in quotes, positions, orders and the watchlist
 * (server/market/localized-names.ts), content, messages, fund flow lines and every error's message. A
 * switch of language is then a new key, and the screens on show ask again.
 */
export function queryKeyOf<K extends QueryCallKey>(
  key: K,
  input: CallIn<K>,
  locale: string,
): readonly [K, CallIn<K>, string] {
  const defined = Object.fromEntries(
    Object.entries(input as object).filter(([, value]) => value !== undefined),
  ) as CallIn<K>;
  return [key, defined, locale] as const;
}

/** The key that matches every input of a call. */
export function callPrefix(key: QueryCallKey): readonly [QueryCallKey] {
  return [key] as const;
}

/** The calls whose input carries a requestId (API.md "Idempotency"): one id per user intent. */
export type IntentCallKey = {
  [K in MutationCallKey]: CallIn<K> extends { requestId: string } ? K : never;
}[MutationCallKey];

/** Every call that takes a requestId; `satisfies` makes the compiler refuse a missing or extra one. */
export const INTENT_CALLS = {
  'POST /user/buy.do': true,
  'POST /user/buyIndex.do': true,
  'POST /user/buyFutures.do': true,
  'POST /user/addOrder.do': true,
  'POST /user/order/cancel.do': true,
  'POST /user/sell.do': true,
  'POST /user/position/topUp.do': true,
  'POST /user/position/setStops.do': true,
  'POST /user/account/reset.do': true,
  'POST /user/recharge/inMoney.do': true,
  'POST /user/withdraw/outMoney.do': true,
  'POST /user/transAmt.do': true,
  'POST /api/user/exchange.do': true,
  'POST /user/fund/buy.do': true,
  'POST /user/fund/sell.do': true,
  'POST /user/funds/addFundsApply.do': true,
  'POST /user/funds/buyFunds.do': true,
  'POST /user/funds/sellFunds.do': true,
  'POST /user/funds/endFundsApply.do': true,
  'POST /user/add.do': true,
  'POST /user/submitSubscribe.do': true,
  'POST /user/buyNewStockQc.do': true,
  'POST /user/buyStockDz.do': true,
  'POST /user/buyVipQc.do': true,
  'POST /user/competition/create.do': true,
  'POST /user/competition/edit.do': true,
  'POST /user/competition/join.do': true,
  'POST /user/alert/add.do': true,
} as const satisfies Record<IntentCallKey, true>;

export function takesRequestId(key: MutationCallKey): key is IntentCallKey {
  return Object.hasOwn(INTENT_CALLS, key);
}

// The reads a change can make stale, named once.
const POSITIONS = 'GET /user/position/list.do';
const HELD = 'GET /user/position/exitsStock.do';
const ORDERS = 'GET /user/order/list.do';
const COMPETITION_LIST = 'GET /api/competition/list.do';
const COMPETITION_DETAIL = 'GET /api/competition/detail.do';
const COMPETITIONS_MINE = 'GET /user/competition/mine.do';
/** A competition's accounts: a trade with competitionId moves them instead of the user's own. */
const COMPETITION_ACCOUNTS = 'GET /user/competition/accounts.do';
const ALERTS = 'GET /user/alert/list.do';
/** The user with every account's balance, available cash and frozen margin (DOMAIN.md "Accounts"). */
const ACCOUNTS = 'GET /user/getUserInfo.do';
/** The fund flow: every ledger entry (/FundingDetails, the transfer records). */
const FUND_FLOW = 'GET /user/cash/list.do';
/** What may be withdrawn now: follows the main account's available cash. */
const WITHDRAW_INFO = 'GET /user/withdraw/info.do';
const SUB_ACCOUNT = 'GET /user/funds/getUserSubaccount.do';
const ALLOCATIONS = 'GET /user/funds/getUserApplyList.do';

/** A trade that moves cash into or out of positions: the ledger has new entries and the accounts moved. */
const OPENS_OR_CLOSES: readonly QueryCallKey[] = [
  POSITIONS,
  HELD,
  ORDERS,
  ACCOUNTS,
  COMPETITION_ACCOUNTS,
  FUND_FLOW,
  WITHDRAW_INFO,
];
/** Cash moved between the user's accounts (no position changes). */
const MOVES_CASH: readonly QueryCallKey[] = [ACCOUNTS, FUND_FLOW, WITHDRAW_INFO];

/**
 * Which queries each change makes stale. A change absent from the station's answer to a read is absent
 * here: a stop price changes a position, not the accounts; revoking a limit order releases the funds it
 * froze (accounts) without a ledger entry (server/trading/limit-orders.ts settleOrder), so it leaves the
 * fund flow alone. Logging in, registering and logging out change whose data it is: the whole cache goes
 * then (station-query.ts), so they need nothing here.
 */
export const INVALIDATES = {
  'POST /user/buy.do': OPENS_OR_CLOSES,
  'POST /user/buyIndex.do': OPENS_OR_CLOSES,
  'POST /user/buyFutures.do': OPENS_OR_CLOSES,
  'POST /user/sell.do': OPENS_OR_CLOSES,
  // A limit order freezes its funds when placed (DOMAIN.md "Orders"); it is not a position until it fills.
  'POST /user/addOrder.do': [ORDERS, ACCOUNTS, COMPETITION_ACCOUNTS, WITHDRAW_INFO],
  'POST /user/order/cancel.do': [ORDERS, ACCOUNTS, COMPETITION_ACCOUNTS, WITHDRAW_INFO],
  'POST /user/position/topUp.do': [POSITIONS, ACCOUNTS, FUND_FLOW, WITHDRAW_INFO],
  'POST /user/position/setStops.do': [POSITIONS],
  'POST /user/account/reset.do': [
    ...OPENS_OR_CLOSES,
    'GET /user/fund/holdings.do',
    'GET /user/fund/trades.do',
    SUB_ACCOUNT,
    ALLOCATIONS,
  ],
  'POST /user/recharge/inMoney.do': ['GET /user/recharge/list.do', ...MOVES_CASH],
  'POST /user/withdraw/outMoney.do': ['GET /user/withdraw/list.do', ...MOVES_CASH],
  'POST /user/withdraw/cancel.do': ['GET /user/withdraw/list.do', ...MOVES_CASH],
  'POST /user/transAmt.do': MOVES_CASH,
  'POST /api/user/exchange.do': ['GET /api/user/exchangeLog.do', ...MOVES_CASH],
  'POST /user/fund/buy.do': ['GET /user/fund/holdings.do', 'GET /user/fund/trades.do', ...MOVES_CASH],
  'POST /user/fund/sell.do': ['GET /user/fund/holdings.do', 'GET /user/fund/trades.do', ...MOVES_CASH],
  'POST /user/funds/addFundsApply.do': [ALLOCATIONS, SUB_ACCOUNT, ...MOVES_CASH],
  'POST /user/funds/endFundsApply.do': [ALLOCATIONS, SUB_ACCOUNT, ...MOVES_CASH],
  // A sub-account's trades move the allocation's own cash and positions, not the user's accounts.
  'POST /user/funds/buyFunds.do': [SUB_ACCOUNT, ALLOCATIONS],
  'POST /user/funds/sellFunds.do': [SUB_ACCOUNT, ALLOCATIONS],
  'POST /user/add.do': ['GET /user/getOneSubscribeByUserId.do', 'GET /user/newStockList.do', ...MOVES_CASH],
  'POST /user/submitSubscribe.do': [
    'GET /user/getOneSubscribeByUserId.do',
    'GET /user/newStockList.do',
    'GET /user/getzqjl.do',
    ...MOVES_CASH,
  ],
  'POST /user/buyNewStockQc.do': ['GET /user/newStockQc.do', ...OPENS_OR_CLOSES],
  'POST /user/buyStockDz.do': [
    'GET /user/buyStockDzList.do',
    'GET /api/stock/getDzList.do',
    ...OPENS_OR_CLOSES,
  ],
  'POST /user/buyVipQc.do': ['GET /user/vipQcList.do', 'GET /api/stock/getVipByCode.do', ...OPENS_OR_CLOSES],
  'POST /user/addOption.do': ['GET /user/option/list.do', 'GET /user/isOption.do'],
  'POST /user/delOption.do': ['GET /user/option/list.do', 'GET /user/isOption.do'],
  'POST /user/option/sort.do': ['GET /user/option/list.do'],
  'POST /user/cash/readMessage.do': ['GET /user/cash/getMessagelist.do', 'GET /user/cash/getUnreadCount.do'],
  'POST /user/service/send.do': ['GET /user/service/messages.do'],
  'POST /user/bank/add.do': ['GET /user/bank/getBankInfo.do', WITHDRAW_INFO],
  'POST /user/bank/update.do': ['GET /user/bank/getBankInfo.do', WITHDRAW_INFO],
  // The user carries the KYC status and whether a withdrawal password is set.
  'POST /user/auth.do': [ACCOUNTS],
  'POST /user/insertWithPwd.do': [ACCOUNTS, WITHDRAW_INFO],
  'POST /user/requestPermission.do': ['GET /user/getPermissions.do'],
  'POST /user/updatePwd.do': [],
  'POST /api/user/updatePwd.do': [],
  'POST /api/sms/sendRegSms.do': [],
  'POST /api/sms/sendForgetSms.do': [],
  'POST /code/checkCode.do': [],
  'POST /api/user/login.do': [],
  'POST /api/user/reg.do': [],
  'POST /api/user/logout.do': [],
  'POST /user/competition/create.do': [COMPETITION_LIST, COMPETITIONS_MINE],
  'POST /user/competition/edit.do': [COMPETITION_LIST, COMPETITION_DETAIL, COMPETITIONS_MINE],
  'POST /user/competition/join.do': [COMPETITION_LIST, COMPETITION_DETAIL, COMPETITIONS_MINE],
  'POST /user/competition/nickname.do': [COMPETITIONS_MINE, 'GET /api/competition/leaderboard.do'],
  'POST /user/alert/add.do': [ALERTS],
  'POST /user/alert/del.do': [ALERTS],
  'POST /user/alert/rearm.do': [ALERTS],
} as const satisfies Record<MutationCallKey, readonly QueryCallKey[]>;

/** The query prefixes a successful change makes stale, each once. */
export function invalidatedBy(key: MutationCallKey): readonly QueryCallKey[] {
  return [...new Set<QueryCallKey>(INVALIDATES[key])];
}

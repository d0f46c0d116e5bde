/**
 * What the order and position screens read first: the screens' queries and their routes' preloads
 * (route-prefetch.ts) share them.
 */
import {
  instrumentRead,
  PRODUCT_SETTING_READ,
  read,
  SETTING_READ,
  USER_READ,
  type StationRead,
} from '../../api/reads';
import type { InstrumentKind } from '../../api/trading-data';

/** One page holds every position and order a user has in practice (API.md "Paging": at most 100). */
export const POSITIONS_PAGE_SIZE = 100;

/**
 * The open or closed positions (the lists, and the order screens' account-wide liquidation price): the
 * user's own, or with `competitionId` those in that competition's accounts (a key of its own, so the two
 * never mix in the cache).
 */
export const positionsRead = (state: 'open' | 'closed', competitionId?: number) =>
  read('GET /user/position/list.do', {
    state,
    pageNum: 1,
    pageSize: POSITIONS_PAGE_SIZE,
    ...(competitionId === undefined ? {} : { competitionId }),
  });

/** The limit orders: the user's own, or with `competitionId` that competition's. */
export const ordersRead = (competitionId?: number) =>
  read('GET /user/order/list.do', {
    pageNum: 1,
    pageSize: POSITIONS_PAGE_SIZE,
    ...(competitionId === undefined ? {} : { competitionId }),
  });

/** The user's own limit orders. */
export const ORDERS_READ = ordersRead();

/** The competitions the user entered or created (the account switcher offers the running ones entered). */
export const MINE_READ = read('GET /user/competition/mine.do', {});

/** A competition's accounts (one per currency) with their figures, valued now. */
export const competitionAccountsRead = (id: number) => read('GET /user/competition/accounts.do', { id });

/** The user's daily equity points in a competition. */
export const equityRead = (id: number) => read('GET /user/competition/equity.do', { id });

/** An order screen's reads: the instrument, the rules, the accounts, the open positions, the settings. */
export const orderScreenReads = (kind: InstrumentKind, code: string): readonly StationRead[] =>
  code
    ? [instrumentRead(kind, code), PRODUCT_SETTING_READ, USER_READ, positionsRead('open'), SETTING_READ]
    : [];

/** /warehouse's reads by tab (the open tab shows the accounts and live liquidation prices too). */
export const warehouseReads = (tab: 'orders' | 'closed' | undefined): readonly StationRead[] =>
  tab === 'orders'
    ? [ORDERS_READ, USER_READ, PRODUCT_SETTING_READ]
    : tab === 'closed'
      ? [positionsRead('closed')]
      : [positionsRead('open'), USER_READ, PRODUCT_SETTING_READ];

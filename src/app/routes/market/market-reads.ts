/**
 * What the market screens read first: the screens' queries and their routes' preloads (route-prefetch.ts)
 * share them.
 */
import type { StockMarket } from '../../../shared/api/types';
import { read } from '../../api/reads';
import type { QuoteSort } from './QuoteList';

/** The rows a market list shows first, and how many more each scroll to its end asks for. */
export const QUOTE_PAGE_STEP = 30;

/** A market list's refreshed first window of `pageSize` rows. */
export const quoteWindowRead = (market: StockMarket, pageSize: number, sort?: QuoteSort) =>
  read('GET /api/stock/getStock.do', { market, pageNum: 1, pageSize, ...(sort ? { sort } : {}) });

const STOCK_MARKETS: readonly string[] = ['a', 'star', 'hk', 'us'] satisfies StockMarket[];

/** A market list's first window, for a tab that is a stock market (indexes and futures read otherwise). */
export const firstQuotesRead = (market: string, sort?: QuoteSort) =>
  STOCK_MARKETS.includes(market) ? quoteWindowRead(market as StockMarket, QUOTE_PAGE_STEP, sort) : null;

/** The user's watchlist. */
export const WATCHLIST_READ = read('GET /user/option/list.do', {});

/** One stock's quote (/listdetail, and the stock order screens through useInstrument). */
export const stockRead = (code: string) => read('GET /api/stock/getSingleStock.do', { code });

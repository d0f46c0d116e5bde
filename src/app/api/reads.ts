/**
 * A screen's read of one station call, as data: the call and its input. The screen passes it to its hook
 * (useStationQuery / useStationPages) and its route's loader to the preload (routes/route-prefetch.ts),
 * so both ask the same query. Pure and small: route files load with the shell.
 */
import type { CallIn } from '../../shared/api/calls';
import type { QueryCallKey } from './query-keys';
import type { PagedCallKey, PagedIn } from './station-query';

export interface StationRead<K extends QueryCallKey = QueryCallKey> {
  readonly key: K;
  readonly input: CallIn<K>;
  /** A paged list (useStationPages): the page its first rows are. */
  readonly pages?: { readonly firstPage: number };
}

export function read<K extends QueryCallKey>(key: K, input: CallIn<K>): StationRead<K> {
  return { key, input };
}

/** A paged list's read; `input` without the page number, which the list supplies. */
export function pagesRead<K extends PagedCallKey>(
  key: K,
  input: PagedIn<K>,
  firstPage = 1,
): StationRead<K> & { readonly input: PagedIn<K> } {
  return { key, input: input as CallIn<K>, pages: { firstPage } };
}

/** The session's user with its accounts (useFreshUser, the order and position screens). */
export const USER_READ = read('GET /user/getUserInfo.do', {});
/** The station's product settings, its trading rules among them (useTradingRules). */
export const PRODUCT_SETTING_READ = read('GET /api/admin/getProductSetting.do', {});
/** The station's settings (orders needing KYC, deposit limits). */
export const SETTING_READ = read('GET /api/admin/getSetting.do', {});
/** The day's exchange rates. */
export const RATES_READ = read('GET /api/site/exchange/rate', {});

/** One instrument as trading-data.ts's useInstrument loads it, by kind. */
export function instrumentRead(kind: 'stock' | 'index' | 'futures', code: string): StationRead {
  if (kind === 'stock') return read('GET /api/stock/getSingleStock.do', { code });
  if (kind === 'index') return read('GET /api/index/querySingleIndex.do', { code });
  return read('GET /api/futures/querySingleMarket.do', { code });
}

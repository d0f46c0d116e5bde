/**
 * A screen's read of one station call, as data: the call and its input. The screen passes it to its hook
 * (useStationQuery) and its route's loader to the preload (routes/route-prefetch.ts),
 * so both ask the same query. Pure: screens and the preloads (routes/route-reads.ts) import it.
 */
import type { CallIn } from '../../shared/api/calls';
import type { QueryCallKey } from './query-keys';

export interface StationRead<K extends QueryCallKey = QueryCallKey> {
  readonly key: K;
  readonly input: CallIn<K>;
}

export function read<K extends QueryCallKey>(key: K, input: CallIn<K>): StationRead<K> {
  return { key, input };
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

/**
 * What the order and position screens load: the station's trading rules (getProductSetting.do `trading`)
 * and one instrument in a common shape, whichever call serves it (a stock, an index or a futures contract).
 */
import type { Currency, InstrumentStatus, Market, Quote } from '../../shared/api/types';
import type { TradingRules } from '../../shared/trading-rules';
import { useQuoteTicksInCache } from './live-query';
import { useQueryKey, useStationQuery, type StationQuery } from './station-query';
import { PRICE_REFRESH_MS } from '../components/market-info';
import { PRODUCT_SETTING_READ } from './reads';

/** Which call serves an instrument: stocks, indexes (CFD-style) or futures. */
export type InstrumentKind = 'stock' | 'index' | 'futures';

export interface TradeInstrument extends Quote {
  limitUp: number | null;
  limitDown: number | null;
  /** Shares in a board lot (stocks); 1 for indexes and futures. */
  lotSize: number;
  /** Units of the underlying per contract (futures). */
  multiplier?: number;
  currency: Currency;
  status: InstrumentStatus;
  tPlus: boolean;
}

/** The kind an instrument of a market is loaded as. */
export function kindOf(market: Market): InstrumentKind {
  return market === 'index' ? 'index' : market === 'futures' ? 'futures' : 'stock';
}

export function useTradingRules(): StationQuery<TradingRules> {
  const settings = useStationQuery(PRODUCT_SETTING_READ.key, PRODUCT_SETTING_READ.input);
  return { ...settings, data: settings.data?.trading };
}

/**
 * One instrument, kept fresh while shown: stocks and indexes by the live stream's ticks written into the
 * cached answer, polled only while the stream is not live; futures (not streamed) by polling.
 */
export function useInstrument(kind: InstrumentKind, code: string | null): StationQuery<TradeInstrument> {
  const stockInput = kind === 'stock' && code ? { code } : null;
  const indexInput = kind === 'index' && code ? { code } : null;
  const futuresInput = kind === 'futures' && code ? { code } : null;
  const stockLive = useQuoteTicksInCache(
    stockInput && code,
    useQueryKey('GET /api/stock/getSingleStock.do', stockInput ?? { code: '' }),
  );
  const indexLive = useQuoteTicksInCache(
    indexInput && code,
    useQueryKey('GET /api/index/querySingleIndex.do', indexInput ?? { code: '' }),
  );
  const stock = useStationQuery('GET /api/stock/getSingleStock.do', stockInput, {
    refetchInterval: stockLive ? undefined : PRICE_REFRESH_MS,
  });
  const index = useStationQuery('GET /api/index/querySingleIndex.do', indexInput, {
    refetchInterval: indexLive ? undefined : PRICE_REFRESH_MS,
  });
  const futures = useStationQuery('GET /api/futures/querySingleMarket.do', futuresInput, {
    refetchInterval: PRICE_REFRESH_MS,
  });
  if (kind === 'stock') return stock;
  if (kind === 'index') {
    const q = index.data;
    return {
      ...index,
      data: q && {
        ...q,
        limitUp: null,
        limitDown: null,
        lotSize: 1,
        status: 'trading',
        tPlus: false,
      },
    };
  }
  const f = futures.data;
  return {
    ...futures,
    data: f && { ...f, lotSize: 1, currency: 'CNY', tPlus: false },
  };
}

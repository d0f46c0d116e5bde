/**
 * What the order and position screens load: the station's trading rules (getProductSetting.do `trading`)
 * and one instrument in a common shape, whichever call serves it (a stock, an index or a futures contract).
 */
import type { Currency, InstrumentStatus, Market, Quote } from '../../../shared/api/types';
import type { TradingRules } from '../../../shared/trading-rules';
import { useCall, type CallState } from '../../api/use-call';
import { PRICE_REFRESH_MS } from '../market/market-info';

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

export function useTradingRules(): CallState<TradingRules> {
  const settings = useCall('GET /api/admin/getProductSetting.do', {});
  return { ...settings, data: settings.data?.trading };
}

/** One instrument, refreshed while shown; null code: nothing to load. */
export function useInstrument(kind: InstrumentKind, code: string | null): CallState<TradeInstrument> {
  const options = { refreshMs: PRICE_REFRESH_MS };
  const stock = useCall(
    'GET /api/stock/getSingleStock.do',
    kind === 'stock' && code ? { code } : null,
    options,
  );
  const index = useCall(
    'GET /api/index/querySingleIndex.do',
    kind === 'index' && code ? { code } : null,
    options,
  );
  const futures = useCall(
    'GET /api/futures/querySingleMarket.do',
    kind === 'futures' && code ? { code } : null,
    options,
  );
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

/**
 * The quote events of the live stream: a code's instrument, its quote at one second, and that quote as an
 * SSE block. Prices are a pure function of time and the seed, so any second can be recomputed exactly.
 */
import type { Quote } from '../../../src/shared/api/types';
import type { Instrument } from '../catalogue';
import type { MarketService } from '../market-service';

/** What a subscribed code is: a stock, an index or a futures product (each quoted its own way). */
type Kind = 'stock' | 'index' | 'futures';

/** A subscribed code's instrument, and how it is quoted. */
export interface StreamEntry {
  instrument: Instrument;
  kind: Kind;
}

/** A code's instrument and kind, or NOT_FOUND. */
export function entryOf(market: MarketService, code: string): StreamEntry {
  const stock = market.find(code);
  if (stock) return { instrument: stock, kind: 'stock' };
  if (market.futures().some((def) => def.code === code)) {
    return { instrument: market.getFutures(code), kind: 'futures' };
  }
  return { instrument: market.getIndex(code), kind: 'index' }; // NOT_FOUND when none
}

/** The quote of one code at one second as JSON, or '' when its market is not in session. */
export function quoteData(market: MarketService, entry: StreamEntry, second: number): string {
  const t = second * 1000;
  if (!market.isOpen(entry.instrument, t)) return '';
  const quote: Quote =
    entry.kind === 'index'
      ? market.indexQuote(entry.instrument, t)
      : entry.kind === 'futures'
        ? { ...market.quote(entry.instrument, t), market: 'futures' }
        : market.quote(entry.instrument, t);
  return JSON.stringify(quote);
}

/** The SSE block of a quote's JSON ('' stays '': nothing is sent for a market not in session). */
export const blockOf = (second: number, data: string) =>
  data === '' ? '' : `id: ${second}\nevent: quote\ndata: ${data}\n\n`;

/** The SSE block of one code at one second ('' when its market is not in session), memoised per tick. */
export function eventOf(
  market: MarketService,
  entry: StreamEntry,
  second: number,
  cache: Map<string, string>,
): string {
  const key = `${entry.instrument.code}|${second}`;
  let block = cache.get(key);
  if (block === undefined) {
    block = blockOf(second, quoteData(market, entry, second));
    cache.set(key, block);
  }
  return block;
}

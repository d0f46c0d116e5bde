/**
 * What the engine sees of the market at a minute: an instrument's price on the one-minute grid, whether it
 * trades then, its day's limits, and whether a position may be closed (what a user's sell would need).
 * Quotes are memoised until `clear()`, which the engine calls at the start of every step.
 */
import type { PositionRow, Station } from '../platform';
import type { Instrument } from '../market';

export interface TickQuote {
  price: number;
  /** The change from the previous close, as a fraction (quote.changePct). */
  changePct: number;
  trading: boolean;
  limitUp: number | null;
  limitDown: number | null;
}

export interface EngineQuotes {
  /** The instrument a row names; undefined when the catalogue no longer knows it. */
  instrumentOf(code: string, market: string): Instrument | undefined;
  /** The price of an instrument at minute t and whether it trades then. */
  quoteAt(instrument: Instrument, t: number): TickQuote;
  /** Whether a position may be closed at minute t, and its price then; null when it may not. */
  closable(p: PositionRow, t: number): TickQuote | null;
  /** A position's price at minute t (its open price when its instrument is unknown). */
  priceAt(p: PositionRow, t: number): number;
  /** Forgets the memoised quotes. */
  clear(): void;
}

export function createEngineQuotes(station: Station): EngineQuotes {
  function instrumentOf(code: string, market: string): Instrument | undefined {
    try {
      if (market === 'index') return station.market.getIndex(code);
      if (market === 'futures') return station.market.getFutures(code);
      return station.market.find(code);
    } catch {
      return undefined;
    }
  }

  const quotes = new Map<string, TickQuote>();
  function quoteAt(instrument: Instrument, t: number): TickQuote {
    const key = `${instrument.code}|${t}`;
    let q = quotes.get(key);
    if (!q) {
      const pos = station.market.position(instrument, t);
      const record = station.market.series(instrument).record(pos.day);
      const quote = station.market.quote(instrument, t);
      q = {
        price: quote.price,
        changePct: quote.changePct,
        trading: pos.inSession && !record.suspended,
        limitUp: record.limits?.up ?? null,
        limitDown: record.limits?.down ?? null,
      };
      quotes.set(key, q);
    }
    return q;
  }

  function closable(p: PositionRow, t: number): TickQuote | null {
    const instrument = instrumentOf(p.code, p.market);
    if (!instrument || t < p.sellable_from) return null;
    const q = quoteAt(instrument, t);
    if (!q.trading) return null;
    if (p.direction === 'long' && q.limitDown !== null && q.price <= q.limitDown) return null;
    if (p.direction === 'short' && q.limitUp !== null && q.price >= q.limitUp) return null;
    return q;
  }

  function priceAt(p: PositionRow, t: number): number {
    const instrument = instrumentOf(p.code, p.market);
    return instrument ? quoteAt(instrument, t).price : p.open_price;
  }

  return { instrumentOf, quoteAt, closable, priceAt, clear: () => quotes.clear() };
}

/**
 * The simulated 5-level order book of one instrument (DOMAIN.md "The simulated market"): new each clock
 * second and the same for the same seed, instrument and second.
 */
import type { OrderBook } from '../../src/shared/api/types';
import type { Instrument } from './catalogue';
import type { InstrumentCatalogue } from './instrument-catalogue';
import { hashSeed, SeededRandom } from './prng';
import { round, type Quotes } from './quotes';
import { tickDecimals, tickFor } from './ticks';

/**
 * The book around the last price at `t`. The last price sits at the best bid or the best ask; levels step
 * by the tick rule (the HKEX spread table in Hong Kong), none lies beyond the day's limits, and sizes are
 * whole lots scaled to the stock's usual volume. Empty while the stock is suspended.
 */
export function orderBook(
  catalogue: InstrumentCatalogue,
  quotes: Quotes,
  instrument: Instrument,
  t: number,
): OrderBook {
  const series = catalogue.series(instrument);
  const record = series.record(catalogue.position(instrument, t).day);
  if (record.suspended) return { bids: [], asks: [] };
  const { price } = quotes.quote(instrument, t);
  const { seed, settings } = catalogue.options;
  const rng = new SeededRandom(hashSeed(seed, 'book', instrument.code, Math.floor(t / 1000)));
  const lot = settings.lotRules[instrument.market].sharesPerLot ?? instrument.lotSize;
  const lotsScale = Math.max(1, Math.round(instrument.avgDailyVolume / lot / 2_000));
  const size = () => lot * (1 + Math.floor(rng.uniform() * lotsScale));
  const onTick = (p: number, tick: number) => round(p, tickDecimals(tick));
  const down = (p: number) => {
    const tick = tickFor(p - 1e-9, instrument.tick);
    return onTick(p - tick, tick);
  };
  const up = (p: number) => {
    const tick = tickFor(p, instrument.tick);
    return onTick(p + tick, tick);
  };
  const atBid = rng.uniform() < 0.5;
  let bid = atBid ? price : down(price);
  let ask = atBid ? up(price) : price;
  const limits = record.limits;
  const bids: OrderBook['bids'] = [];
  const asks: OrderBook['asks'] = [];
  for (let level = 0; level < 5; level++) {
    if (bid > 0 && (!limits || bid >= limits.down)) bids.push([bid, size()]);
    if (!limits || ask <= limits.up) asks.push([ask, size()]);
    bid = down(bid);
    ask = up(ask);
  }
  return { bids, asks };
}

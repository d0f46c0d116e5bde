/**
 * A stock's figures as a broker app shows them under the quote (market cap, P/E (TTM), turnover rate,
 * 52-week range, shares outstanding, dividend yield). The catalogue has no balance sheets, so each stock's
 * share count, free float and trailing earnings are seeded once per code from `MARKET_SEED` and its
 * catalogue entry; everything else follows the simulated market: the price, today's volume, the day bars of
 * the last 52 weeks and the dividends and bonus issues of the price history (corporate-actions.ts).
 */
import type { Bar, StockFigures } from '../../src/shared/api/types';
import type { Board, Instrument } from './catalogue';
import { hashSeed, mulberry32 } from './prng';
import { round } from './quotes';

/** What is seeded per stock: fixed for a seed and a code, whatever the day. */
export interface Fundamentals {
  /** Shares outstanding at the start of the simulated history (before any bonus issue in it). */
  baseShares: number;
  /** Freely traded shares at the start of the simulated history (the turnover rate's base). */
  baseFloatShares: number;
  /** Trailing-twelve-month earnings per base share, in major units; negative for a loss-maker. */
  baseEps: number;
}

/**
 * A typical day's turnover rate (volume ÷ free float) per board, low to high: the catalogue's average daily
 * volume divided by it gives a float of the right size (A-share main boards trade 0.3–2% of their float a
 * day, STAR and ChiNext more, Hong Kong much less).
 */
const TYPICAL_TURNOVER: Record<Board, readonly [number, number]> = {
  main: [0.003, 0.02],
  chinext: [0.01, 0.04],
  star: [0.01, 0.04],
  hk: [0.001, 0.008],
  us: [0.003, 0.015],
};

/** The free float as a fraction of all shares (restricted and state-held shares are common on A-shares). */
const FLOAT_RATIO: Record<Board, readonly [number, number]> = {
  main: [0.6, 1],
  chinext: [0.5, 0.95],
  star: [0.3, 0.9],
  hk: [0.5, 1],
  us: [0.85, 1],
};

/** P/E at the reference price of a profitable stock, low to high, per board. */
const PE_RANGE: Record<Board, readonly [number, number]> = {
  main: [5, 40],
  chinext: [20, 80],
  star: [25, 120],
  hk: [4, 30],
  us: [12, 45],
};

/** The share of loss-makers per board (growth boards have more). */
const LOSS_SHARE: Record<Board, number> = { main: 0.08, chinext: 0.15, star: 0.25, hk: 0.12, us: 0.15 };

/** Share counts are whole lots of 10,000 shares: a registry figure, not a computed float. */
const SHARE_ROUNDING = 10_000;

const between = (u: number, [lo, hi]: readonly [number, number]) => lo + (hi - lo) * u;
const roundShares = (n: number) => Math.max(SHARE_ROUNDING, Math.round(n / SHARE_ROUNDING) * SHARE_ROUNDING);

/** The seeded share count, float and trailing earnings of a stock (the same for the same seed and code). */
export function fundamentalsOf(
  instrument: Pick<Instrument, 'code' | 'board' | 'referencePrice' | 'avgDailyVolume'>,
  seed: string,
): Fundamentals {
  const uniform = mulberry32(hashSeed(seed, instrument.code, 'fundamentals'));
  const turnover = between(uniform(), TYPICAL_TURNOVER[instrument.board]);
  const floatRatio = between(uniform(), FLOAT_RATIO[instrument.board]);
  const floatShares = instrument.avgDailyVolume / turnover;
  const baseShares = roundShares(floatShares / floatRatio);
  const baseFloatShares = Math.min(baseShares, roundShares(floatShares));
  const lossMaker = uniform() < LOSS_SHARE[instrument.board];
  const pe = lossMaker ? -between(uniform(), [15, 100]) : between(uniform(), PE_RANGE[instrument.board]);
  // Four decimals, never zero: a P/E needs a non-zero divisor.
  const eps = round(instrument.referencePrice / pe, 4) || (lossMaker ? -0.0001 : 0.0001);
  return { baseShares, baseFloatShares, baseEps: eps };
}

/** What the figures take from the simulated market at a moment. */
export interface MarketInputs {
  price: number;
  /** Today's volume so far, in shares. */
  volume: number;
  /** Day bars of the last 52 weeks, as the K-line returns them (unadjusted), oldest first. */
  bars52w: readonly Bar[];
  /** Start of the 52-week window, epoch ms. */
  windowStart: number;
  /** Cash dividends per share that went ex in the last 12 months. */
  dividendsTtm: number;
  /** Product of (1 + bonus shares per share) over the bonus issues up to today. */
  bonusFactor: number;
  time: number;
}

/** The figures at a moment: the seeded fundamentals priced with the market's inputs. */
export function stockFigures(
  instrument: Pick<Instrument, 'code' | 'currency'>,
  f: Fundamentals,
  m: MarketInputs,
): StockFigures {
  const sharesOutstanding = Math.round(f.baseShares * m.bonusFactor);
  const floatShares = Math.round(f.baseFloatShares * m.bonusFactor);
  // A bonus issue spreads the same earnings over more shares.
  const epsTtm = round(f.baseEps / m.bonusFactor, 4);
  let high = m.price;
  let low = m.price;
  if (m.bars52w.length > 0) {
    high = -Infinity;
    low = Infinity;
    for (const bar of m.bars52w) {
      if (bar[2] > high) high = bar[2];
      if (bar[3] < low) low = bar[3];
    }
  }
  return {
    code: instrument.code,
    currency: instrument.currency,
    price: m.price,
    sharesOutstanding,
    floatShares,
    marketCap: round(m.price * sharesOutstanding, 2),
    epsTtm,
    // Convention of the Chinese apps: no P/E for a loss-maker (the app says "loss").
    peTtm: epsTtm > 0 ? round(m.price / epsTtm, 2) : null,
    volume: m.volume,
    turnoverRate: round(m.volume / floatShares, 6),
    high52w: high,
    low52w: low,
    windowStart: m.windowStart,
    dividendPerShareTtm: round(m.dividendsTtm, 3),
    dividendYield: round(m.dividendsTtm / m.price, 6),
    time: m.time,
  };
}

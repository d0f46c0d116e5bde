import type { Market } from '../../shared/api/types';
import { isExchangeFund } from '../../shared/exchange-funds';

/** DOMAIN.md "Markets": the time zone each market's bars and sessions are in. */
export const MARKET_TIME_ZONE: Record<Market, string> = {
  a: 'Asia/Shanghai',
  star: 'Asia/Shanghai',
  hk: 'Asia/Hong_Kong',
  us: 'America/New_York',
  index: 'Asia/Shanghai',
  futures: 'Asia/Shanghai',
};

/** Decimals a price is shown with: HK and US penny prices tick finer than 0.01 (DOMAIN.md ticks). */
export function priceDigits(market: Market, price: number, code?: string): number {
  // An A-share exchange-traded fund quotes to 0.001 yuan (src/shared/exchange-funds.ts).
  if (market === 'a' && isExchangeFund(code)) return 3;
  if ((market === 'hk' || market === 'us') && Math.abs(price) < 1) return 3;
  return 2;
}

/** How often a visible screen re-reads prices until the live stream arrives. */
export const PRICE_REFRESH_MS = 5000;

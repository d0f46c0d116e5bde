import type { CalendarMarket, Market } from '../../shared/api/types';

/**
 * The trading calendar's section for an instrument's market: an index trades on the calendar of its
 * exchange, known by its currency (HSI in HKD, SPX in USD, the Chinese indexes in CNY), as its time zone is
 * (src/shared/format.ts exchangeZoneOf).
 */
export function calendarLink(
  market: Market | 'futures',
  currency?: string,
): { to: '/calendar'; search: { market: CalendarMarket } } {
  if (market !== 'index') return { to: '/calendar', search: { market } };
  const section: CalendarMarket = currency === 'HKD' ? 'hk' : currency === 'USD' ? 'us' : 'a';
  return { to: '/calendar', search: { market: section } };
}

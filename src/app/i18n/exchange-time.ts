/**
 * Exchange times as the app shows them: in the exchange's time zone with its translated name ("09:30
 * Beijing"), whatever the phone's zone (src/shared/format.ts).
 */
import { useI18nContext } from '../../../locales/i18n-react';
import { exchangeZoneOf, formatExchangeTime } from '../../shared/format';

/** A formatter of epoch ms in the zone of `market` (an index or futures contract: of its `currency`). */
export function useExchangeTime(): (ms: number, market: string, currency?: string) => string {
  const { LL } = useI18nContext();
  return (ms, market, currency) => {
    const zone = exchangeZoneOf(market, currency);
    return formatExchangeTime(ms, zone, LL.exchangeTime.zone[zone]());
  };
}

/**
 * Quantities as each market counts them (spec §5): A-shares and Hong Kong stocks in board lots, US stocks in
 * single shares, indexes and futures in contracts; with the locale's plural forms.
 */
import type { TranslationFunctions } from '../../../locales/i18n-types';
import type { Market } from '../../shared/api/types';
import { quantityUnit } from '../../shared/trading-rules';

/** The label of a quantity on a market: "Lots", "Shares" or "Contracts". */
export function quantityLabel(LL: TranslationFunctions, market: Market): string {
  const unit = quantityUnit(market);
  return unit === 'lots'
    ? LL.positions.lots()
    : unit === 'shares'
      ? LL.positions.shares()
      : LL.positions.contracts();
}

/** A quantity on a market: "2 lots (200 shares)", "1 share", "3 contracts". */
export function quantityText(LL: TranslationFunctions, market: Market, lots: number, shares: number): string {
  const unit = quantityUnit(market);
  return unit === 'lots'
    ? LL.trading.quantityValue({ lots, shares })
    : unit === 'shares'
      ? LL.trading.quantityShares({ shares })
      : LL.trading.quantityContracts({ lots });
}

/** A count of a market's own unit, without the shares behind it: "3 lots", "1 share", "2 contracts". */
export function quantityCount(LL: TranslationFunctions, market: Market, lots: number): string {
  const unit = quantityUnit(market);
  return unit === 'lots'
    ? LL.trading.quantityLots({ lots })
    : unit === 'shares'
      ? LL.trading.quantityShares({ shares: lots })
      : LL.trading.quantityContracts({ lots });
}

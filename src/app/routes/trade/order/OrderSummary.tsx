import { useI18nContext } from '../../../../../locales/i18n-react';
import type { Currency, Market } from '../../../../shared/api/types';
import { formatMoney } from '../../../../shared/format';
import type { OrderBreakdown } from '../../../../shared/trading-rules';
import type { InstrumentKind } from '../../../api/trading-data';
import { quantityCount } from '../../../i18n/quantity';

/** Under the form: what is bought, the margin it takes and the funds available (the full breakdown is the sheet's). */
export function OrderSummary({
  kind,
  market,
  lots,
  breakdown,
  available,
  currency,
}: {
  kind: InstrumentKind;
  market: Market;
  lots: number;
  breakdown: OrderBreakdown;
  available: number;
  /** The paying account's currency. */
  currency: Currency;
}) {
  const { LL, locale } = useI18nContext();
  return (
    <dl className="order-summary">
      {kind === 'stock' ? (
        <div>
          <dt>{LL.buy.shares()}</dt>
          <dd className="num" data-testid="buy-shares">
            {formatMoney(breakdown.shares, locale, 0)}
          </dd>
        </div>
      ) : (
        // Indexes and futures are counted in contracts (their multiplier is in the hint), not in shares.
        <div>
          <dt>{LL.trading.contracts()}</dt>
          <dd className="num" data-testid="buy-contracts">
            {quantityCount(LL, market, lots)}
          </dd>
        </div>
      )}
      <div>
        <dt>{LL.trading.margin()}</dt>
        <dd className="num">
          {currency} {formatMoney(breakdown.margin, locale)}
        </dd>
      </div>
      <div>
        <dt>{LL.trading.available()}</dt>
        <dd className="num" data-testid="buy-available">
          {currency} {formatMoney(available, locale)}
        </dd>
      </div>
    </dl>
  );
}

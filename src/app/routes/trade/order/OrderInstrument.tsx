import { useI18nContext } from '../../../../../locales/i18n-react';
import type { Currency } from '../../../../shared/api/types';
import { formatMoney } from '../../../../shared/format';
import type { TradeInstrument } from '../../../api/trading-data';
import { moveClass, PctText } from '../../../components/PriceText';

/** The instrument ordered: its name and code, the price now and the day's move, and its price limits. */
export function OrderInstrument({
  instrument,
  formatPrice,
}: {
  instrument: TradeInstrument;
  /** A price as the screen shows it (the instrument's digits). */
  formatPrice: (value: number) => string;
}) {
  const { LL } = useI18nContext();
  return (
    <>
      <section className="buy-instrument">
        <div>
          <h2>{instrument.name}</h2>
          <span className="num muted">{instrument.code}</span>
        </div>
        <div className={`buy-price ${moveClass(instrument.change)}`}>
          <span className="label">{LL.buy.price()}</span>
          <span className="num big" data-testid="buy-price" data-value={String(instrument.price)}>
            {formatPrice(instrument.price)}
          </span>
          <PctText fraction={instrument.changePct} />
        </div>
      </section>
      {(instrument.limitUp !== null || instrument.limitDown !== null) && (
        <p className="muted small limits-line">
          {LL.detail.limitUp()} {instrument.limitUp === null ? '--' : formatPrice(instrument.limitUp)} ·{' '}
          {LL.detail.limitDown()} {instrument.limitDown === null ? '--' : formatPrice(instrument.limitDown)}
        </p>
      )}
    </>
  );
}

/** An index quoted in another currency than its account's is settled at the day's rate (DOMAIN.md). */
export function SettlementLine({
  settlement,
}: {
  settlement: { priceCurrency: Currency; accountCurrency: Currency; rate: number };
}) {
  const { LL, locale } = useI18nContext();
  return (
    <p className="muted small" data-testid="settlement-rate">
      {LL.trading.settledAt({
        priceCurrency: settlement.priceCurrency,
        accountCurrency: settlement.accountCurrency,
        rate: formatMoney(settlement.rate, locale, 4),
      })}
    </p>
  );
}

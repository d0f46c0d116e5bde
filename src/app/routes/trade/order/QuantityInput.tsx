import type { TranslationFunctions } from '../../../../../locales/i18n-types';
import { useI18nContext } from '../../../../../locales/i18n-react';
import type { Market } from '../../../../shared/api/types';
import { quantityUnit } from '../../../../shared/trading-rules';
import type { InstrumentKind } from '../../../api/trading-data';
import { FormField } from '../../../components/FormField';
import { steppedLots } from './order-rules';

/**
 * What the quantity is counted in: contracts (indexes, futures), or for stocks lots (A-shares, Hong Kong) or
 * single shares (US; spec §5, quantityUnit).
 */
export function quantityLabel(LL: TranslationFunctions, kind: InstrumentKind, market: Market): string {
  if (kind !== 'stock') return LL.trading.contracts();
  return quantityUnit(market) === 'shares' ? LL.buy.sharesToBuy() : LL.buy.lots();
}

/** The quantity of an order: typed or stepped one at a time, 1 to the per-order maximum. */
export function QuantityInput({
  kind,
  market,
  unitsPerLot,
  maxLots,
  value,
  error,
  onChange,
  onStep,
}: {
  kind: InstrumentKind;
  market: Market;
  /** Shares in a lot, or a contract's multiplier. */
  unitsPerLot: number;
  maxLots: number;
  value: string;
  error: string | undefined;
  onChange: (event: { target: { value: string } }) => void;
  /** The stepper's new quantity. */
  onStep: (lots: string) => void;
}) {
  const { LL } = useI18nContext();
  const inShares = quantityUnit(market) === 'shares';
  const hint =
    kind !== 'stock'
      ? LL.trading.contractsHint({ multiplier: unitsPerLot, max: maxLots })
      : inShares
        ? LL.buy.sharesHint({ max: maxLots })
        : LL.buy.lotsHint({ lotSize: unitsPerLot, max: maxLots });
  return (
    <FormField
      label={quantityLabel(LL, kind, market)}
      name="lots"
      type="text"
      inputMode="numeric"
      autoComplete="off"
      maxLength={5}
      value={value}
      error={error}
      hint={hint}
      onChange={onChange}
      addon={
        <span className="stepper">
          <button
            type="button"
            className="icon-button"
            aria-label={inShares ? LL.buy.decreaseShare() : LL.buy.decrease()}
            onClick={() => onStep(String(steppedLots(value, -1, maxLots)))}
          >
            −
          </button>
          <button
            type="button"
            className="icon-button"
            aria-label={inShares ? LL.buy.increaseShare() : LL.buy.increase()}
            onClick={() => onStep(String(steppedLots(value, 1, maxLots)))}
          >
            +
          </button>
        </span>
      }
    />
  );
}

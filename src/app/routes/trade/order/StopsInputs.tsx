import { useI18nContext } from '../../../../../locales/i18n-react';
import { FormField } from '../../../components/FormField';

/**
 * The optional take-profit and stop-loss prices, the message when they lie on the wrong side of the price,
 * and the warning (not a refusal, DOMAIN.md) when the stop loss lies beyond the liquidation price.
 */
export function StopsInputs({
  stopProfit,
  stopLoss,
  onStopProfit,
  onStopLoss,
  errors,
  warning,
}: {
  stopProfit: string;
  stopLoss: string;
  onStopProfit: (event: { target: { value: string } }) => void;
  onStopLoss: (event: { target: { value: string } }) => void;
  /** `stops` is about the pair (its sides); the others are the station's about one of them. */
  errors: { stops?: string | undefined; stopProfit?: string | undefined; stopLoss?: string | undefined };
  warning: string | null;
}) {
  const { LL } = useI18nContext();
  return (
    <>
      <div className="stops-row">
        <FormField
          label={LL.trading.stopProfit()}
          name="stopProfit"
          inputMode="decimal"
          autoComplete="off"
          placeholder={LL.trading.optional()}
          value={stopProfit}
          error={errors.stopProfit}
          onChange={onStopProfit}
        />
        <FormField
          label={LL.trading.stopLoss()}
          name="stopLoss"
          inputMode="decimal"
          autoComplete="off"
          placeholder={LL.trading.optional()}
          value={stopLoss}
          error={errors.stopLoss}
          onChange={onStopLoss}
        />
      </div>
      {errors.stops && (
        <p className="field-error" data-testid="error-stops">
          {errors.stops}
        </p>
      )}
      {warning && (
        <p className="field-warning" role="status" data-testid="stop-loss-liquidation-warning">
          {warning}
        </p>
      )}
    </>
  );
}

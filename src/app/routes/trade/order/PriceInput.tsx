import { useI18nContext } from '../../../../../locales/i18n-react';
import { FormField } from '../../../components/FormField';
import { Choice } from '../Choice';
import type { OrderType } from './order-rules';

/** At the market price, or at a limit: then the trigger price, within the day's limits. */
export function PriceInput({
  orderType,
  onOrderType,
  trigger,
  onTrigger,
  error,
}: {
  orderType: OrderType;
  onOrderType: (orderType: OrderType) => void;
  trigger: string;
  onTrigger: (event: { target: { value: string } }) => void;
  error: string | undefined;
}) {
  const { LL } = useI18nContext();
  return (
    <>
      <Choice
        label={LL.trading.orderType()}
        testId="order-type"
        value={orderType}
        options={[
          { key: 'market', label: LL.trading.marketOrder() },
          { key: 'limit', label: LL.trading.limitOrder() },
        ]}
        onChange={onOrderType}
      />
      {orderType === 'limit' && (
        <FormField
          label={LL.trading.triggerPrice()}
          name="triggerPrice"
          inputMode="decimal"
          autoComplete="off"
          value={trigger}
          error={error}
          hint={LL.trading.triggerHint()}
          onChange={onTrigger}
        />
      )}
    </>
  );
}

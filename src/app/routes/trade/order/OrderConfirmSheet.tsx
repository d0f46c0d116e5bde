import { useI18nContext } from '../../../../../locales/i18n-react';
import { Sheet } from '../../../components/Sheet';
import { SheetButtons } from '../../../components/SheetButtons';
import { OrderBreakdownList, type OrderBreakdownListProps } from '../OrderBreakdownList';
import type { OrderRequest } from './order-rules';
import { useOrderSending } from './use-order-sending';

interface OrderConfirmSheetProps {
  /** The order as the sheet lists it. */
  order: OrderBreakdownListProps;
  /** The form's warning that the stop loss lies beyond the liquidation price, repeated where the user confirms. */
  stopLossWarning: string | null;
  /** The order as it goes (order-rules.ts orderRequest). */
  request: OrderRequest;
  /** The station's refusal when it is not about one field of the form. */
  refusal: string | null;
  onSend: () => void;
  onRefused: (error: unknown) => void;
  onClose: () => void;
  onPlaced: (list: 'positions' | 'orders') => void;
}

/** The full breakdown before the order goes (DOMAIN.md), and the order itself, once per requestId. */
export function OrderConfirmSheet(props: OrderConfirmSheetProps) {
  const { LL } = useI18nContext();
  const { instrument, breakdown, direction, orderType } = props.order;
  const order = useOrderSending({ onPlaced: props.onPlaced, onRefused: props.onRefused });

  return (
    <Sheet open title={LL.trading.confirmTitle()} onClose={props.onClose} testId="order-confirm-sheet">
      <p className="sheet-text">
        {instrument.name} <span className="num muted">{instrument.code}</span>
      </p>
      <OrderBreakdownList {...props.order} />
      {props.stopLossWarning && (
        <p className="field-warning" role="status" data-testid="confirm-stop-loss-warning">
          {props.stopLossWarning}
        </p>
      )}
      {orderType === 'limit' && <p className="muted small">{LL.trading.limitNote()}</p>}
      {breakdown.insufficient && (
        <p className="inline-error" data-testid="bd-insufficient">
          {LL.errors.INSUFFICIENT_FUNDS()}
        </p>
      )}
      {order.checking && (
        <p className="muted" role="status" data-testid="outcome-checking">
          {LL.outcome.checking()}
        </p>
      )}
      {order.stalled && !order.checking && (
        <div className="button-row" role="status">
          <span className="muted">{LL.outcome.stalled()}</span>
          <button
            type="button"
            className="button secondary"
            data-testid="order-stop-waiting"
            onClick={order.stopWaiting}
          >
            {LL.outcome.stopWaiting()}
          </button>
        </div>
      )}
      {props.refusal && (
        <p className="form-error" role="alert" data-testid="buy-error">
          {props.refusal}
        </p>
      )}
      <SheetButtons
        label={LL.trading.confirmOrder()}
        busy={order.sending}
        onConfirm={() => {
          props.onSend();
          order.send(props.request);
        }}
        onCancel={props.onClose}
        testId="order-submit"
        className={direction === 'short' ? 'sell' : 'buy'}
      />
    </Sheet>
  );
}

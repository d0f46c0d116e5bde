import { useEffect, useRef, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useI18nContext } from '../../../../../locales/i18n-react';
import { toApiError } from '../../../api/client';
import { MONEY_CALL_STALL_MS, sendMoneyCall, type MoneyCallOptions } from '../../../api/outcome';
import { intentKey, requestIdFor } from '../../../api/request-id';
import { invalidateAfter } from '../../../api/station-query';
import { showAlert } from '../../../state/alert';
import { placedList, type OrderRequest } from './order-rules';

export interface OrderSending {
  send: (request: OrderRequest) => void;
  /** The order is under way (the sheet's action then takes no second tap). */
  sending: boolean;
  /** The answer was lost and the station is being asked what became of the order (outcome.ts). */
  checking: boolean;
  /** No answer after MONEY_CALL_STALL_MS: the user may stop waiting, and it is looked up. */
  stalled: boolean;
  stopWaiting: () => void;
}

/**
 * Sends a reviewed order once per requestId (the same order sent again within the window, even from a sheet
 * closed and opened again, is the same request, so it cannot go twice). The outcome (including one found after
 * a lost answer) is said even when the sheet was left meanwhile: by an alert, and the refusal then too.
 */
export function useOrderSending(handlers: {
  onPlaced: (list: 'positions' | 'orders') => void;
  onRefused: (error: unknown) => void;
}): OrderSending {
  const { LL } = useI18nContext();
  const [checking, setChecking] = useState(false);
  const [stalled, setStalled] = useState(false);
  const stopWaiting = useRef<AbortController | null>(null);
  // The sheet may be left while a lost answer is looked up: the outcome is then said by an alert.
  const open = useRef(true);
  useEffect(() => {
    open.current = true;
    return () => {
      open.current = false;
    };
  }, []);

  // The order as a mutation: its pending state is the sheet's busy state. Its own callbacks (not mutate's)
  // say the outcome, since they run even after the sheet is gone.
  const order = useMutation({
    mutationFn: async (request: OrderRequest) => {
      const intent = intentKey(request.key, request.input);
      const requestId = requestIdFor(intent);
      let lookedUp = false;
      stopWaiting.current = new AbortController();
      const options: MoneyCallOptions = {
        intent,
        signal: stopWaiting.current.signal,
        onChecking: () => {
          lookedUp = true;
          setChecking(true);
        },
      };
      if (request.key === 'POST /user/addOrder.do') {
        await sendMoneyCall(request.key, { ...request.input, requestId }, options);
      } else {
        await sendMoneyCall(request.key, { ...request.input, requestId }, options);
      }
      return { lookedUp };
    },
    onSuccess: ({ lookedUp }, request) => {
      const list = placedList(request);
      // An outcome found by asking the station says so: the user saw "checking" before.
      const text = lookedUp
        ? LL.outcome.wentThrough()
        : list === 'orders'
          ? LL.trading.orderPlaced()
          : LL.buy.success();
      showAlert(text, 'success');
      // What the order changed (positions, orders, accounts, the fund flow) is read again.
      void invalidateAfter(request.key);
      if (open.current) handlers.onPlaced(list);
    },
    onError: (error) => {
      if (open.current) handlers.onRefused(error);
      else showAlert(toApiError(error).message);
    },
    onSettled: () => setChecking(false),
  });
  const sending = order.isPending;

  useEffect(() => {
    if (!sending || checking) return;
    const timer = setTimeout(() => setStalled(true), MONEY_CALL_STALL_MS);
    return () => {
      clearTimeout(timer);
      setStalled(false);
    };
  }, [sending, checking]);

  return {
    send: (request) => order.mutate(request),
    sending,
    checking,
    stalled,
    stopWaiting: () => stopWaiting.current?.abort(),
  };
}

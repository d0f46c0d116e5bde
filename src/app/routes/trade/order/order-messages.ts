/**
 * The order form's problems (order-rules.ts) as the user's messages, by the slot each is shown in: under the
 * quantity, under the trigger price, under the stops, under the leverage.
 */
import type { TranslationFunctions } from '../../../../../locales/i18n-types';
import type { Direction } from '../../../../shared/api/types';
import { lotsMessage, validationMessage } from '../../../forms/form-errors';
import type { OrderProblems } from './order-rules';

export type OrderMessageSlot = keyof OrderProblems;

export function orderMessages(
  LL: TranslationFunctions,
  problems: OrderProblems,
  order: {
    direction: Direction;
    maxLots: number;
    limitUp: number | null;
    limitDown: number | null;
    /** A price as the screen shows it (the instrument's digits). */
    formatPrice: (value: number) => string;
  },
): Record<OrderMessageSlot, string | null> {
  const { formatPrice } = order;
  return {
    lots: lotsMessage(LL, problems.lots, order.maxLots),
    triggerPrice:
      problems.triggerPrice === 'triggerRequired'
        ? LL.trading.triggerRequired()
        : problems.triggerPrice === 'triggerOutsideLimits'
          ? LL.trading.triggerOutsideLimits({
              down: formatPrice(order.limitDown ?? 0),
              up: formatPrice(order.limitUp ?? 0),
            })
          : null,
    stops:
      problems.stops === 'invalid'
        ? validationMessage(LL, 'invalid')
        : problems.stops === 'side'
          ? order.direction === 'long'
            ? LL.errors.STOPS_LONG()
            : LL.errors.STOPS_SHORT()
          : null,
    leverage: problems.leverage === 'notOffered' ? validationMessage(LL, 'invalid') : null,
  };
}

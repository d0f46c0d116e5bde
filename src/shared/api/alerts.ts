/**
 * Price alerts: shapes of the alert calls. A price is in the instrument's currency; a change is a fraction
 * of the previous close (0.05 is 5 %), as `quote.changePct`. Times in ms.
 */
import type { Market } from './types';

export type PriceAlertKind = 'priceAbove' | 'priceBelow' | 'changeAbove' | 'changeBelow';

export const PRICE_ALERT_KINDS: readonly PriceAlertKind[] = [
  'priceAbove',
  'priceBelow',
  'changeAbove',
  'changeBelow',
];

export interface PriceAlert {
  id: number;
  code: string;
  name: string;
  market: Market;
  kind: PriceAlertKind;
  value: number;
  createdAt: number;
  /** Watched from the first minute at or after this instant (creation or the last re-arming). */
  armedAt: number;
  /** When it fired (null while armed); a fired alert stays listed until re-armed or deleted. */
  firedAt: number | null;
  /** The price at the minute it fired. */
  firedPrice: number | null;
}

export interface AlertCalls {
  'GET /user/alert/list.do': { in: { code?: string }; out: PriceAlert[] };
  'POST /user/alert/add.do': {
    in: { code: string; kind: PriceAlertKind; value: number; requestId: string };
    out: PriceAlert;
  };
  'POST /user/alert/del.do': { in: { id: number }; out: null };
  'POST /user/alert/rearm.do': { in: { id: number }; out: PriceAlert };
}

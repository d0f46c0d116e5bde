/** The response envelope of API.md: every answer of the test station has this shape. */

/** Stable, machine-readable error codes (API.md "Error codes"). Never reuse one for another meaning. */
export const ERROR_CODES = [
  'VALIDATION',
  'NOT_LOGGED_IN',
  'BAD_CREDENTIALS',
  'PHONE_TAKEN',
  'BAD_CODE',
  'CODE_EXPIRED',
  'RATE_LIMITED',
  'KYC_REQUIRED',
  'BANK_CARD_REQUIRED',
  'WITHDRAW_PASSWORD_REQUIRED',
  'BAD_WITHDRAW_PASSWORD',
  'NO_PERMISSION',
  'REGION_BLOCKED',
  /** A state-changing call authenticated by the session cookie came from another site (CSRF defence). */
  'CROSS_SITE',
  'OUTSIDE_TRADING_HOURS',
  'OUTSIDE_DEPOSIT_HOURS',
  'OUTSIDE_WITHDRAW_HOURS',
  'MARKET_CLOSED_FOR_INSTRUMENT',
  'SUSPENDED',
  'PRICE_LIMIT',
  'INSUFFICIENT_FUNDS',
  'BELOW_MINIMUM',
  'ABOVE_MAXIMUM',
  'LOT_RULE',
  'T_PLUS_ONE',
  'NOT_FOUND',
  'ALREADY_DONE',
  'INDEX_NOT_WATCHABLE',
  'RESET_BLOCKED',
  /** A limited allocation (a VIP pick) has no lots left. */
  'SOLD_OUT',
  /** A stock-only call (figures, a stock's own news) was given an index or a futures code. */
  'NOT_A_STOCK',
  /** A competition has as many entrants as its cap allows. */
  'COMPETITION_FULL',
  /** A competition call outside the competition's time: not started yet, or ended. */
  'COMPETITION_CLOSED',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** HTTP status that goes with each error code (API.md "Responses"). */
export const ERROR_HTTP_STATUS: Record<ErrorCode, number> = {
  VALIDATION: 400,
  NOT_LOGGED_IN: 401,
  BAD_CREDENTIALS: 401,
  PHONE_TAKEN: 409,
  BAD_CODE: 400,
  CODE_EXPIRED: 400,
  RATE_LIMITED: 429,
  KYC_REQUIRED: 403,
  BANK_CARD_REQUIRED: 403,
  WITHDRAW_PASSWORD_REQUIRED: 403,
  BAD_WITHDRAW_PASSWORD: 400,
  NO_PERMISSION: 403,
  REGION_BLOCKED: 403,
  CROSS_SITE: 403,
  OUTSIDE_TRADING_HOURS: 409,
  OUTSIDE_DEPOSIT_HOURS: 409,
  OUTSIDE_WITHDRAW_HOURS: 409,
  MARKET_CLOSED_FOR_INSTRUMENT: 409,
  SUSPENDED: 409,
  PRICE_LIMIT: 409,
  INSUFFICIENT_FUNDS: 409,
  BELOW_MINIMUM: 400,
  ABOVE_MAXIMUM: 400,
  LOT_RULE: 400,
  T_PLUS_ONE: 409,
  NOT_FOUND: 404,
  ALREADY_DONE: 409,
  INDEX_NOT_WATCHABLE: 400,
  RESET_BLOCKED: 409,
  SOLD_OUT: 409,
  NOT_A_STOCK: 400,
  COMPETITION_FULL: 409,
  COMPETITION_CLOSED: 409,
  INTERNAL: 500,
};

export interface OkEnvelope<T> {
  status: 0;
  msg: string;
  data: T;
}

export interface FailEnvelope {
  /** Non-zero: the HTTP status of the answer. */
  status: number;
  code: ErrorCode;
  /** The message in the request's language. */
  msg: string;
  /** For VALIDATION: each bad field with its translated message. */
  fields?: Record<string, string>;
}

export type Envelope<T> = OkEnvelope<T> | FailEnvelope;

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

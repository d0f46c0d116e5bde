/**
 * JSON schemas of the API's shapes and of common request fields. The same schemas validate requests,
 * serialise answers and make the OpenAPI document at /docs/json.
 */
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '../../../src/shared/api/envelope';
import { MARKETS } from '../../../src/shared/api/types';

const num = { type: 'number' } as const;
const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;
const nullable = (type: 'number' | 'string' | 'integer') => ({ type: [type, 'null'] }) as const;

function object(properties: Record<string, unknown>, description?: string) {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  } as const;
}

const CURRENCY = { type: 'string', enum: ['CNY', 'HKD', 'USD'] } as const;

/** The fields every quote shape shares (API.md `quote`). */
const QUOTE_FIELDS = {
  code: str,
  name: str,
  market: { type: 'string', enum: [...MARKETS] },
  price: num,
  prevClose: num,
  open: num,
  high: num,
  low: num,
  change: num,
  changePct: { ...num, description: 'a fraction: 0.0123 is +1.23%' },
  volume: { ...num, description: 'shares' },
  turnover: num,
  time: { ...int, description: 'epoch ms' },
} as const;

export const SHARED_SCHEMAS = [
  {
    $id: 'ErrorEnvelope',
    description: 'Every failure: status is the HTTP status; fields names each bad field (VALIDATION).',
    type: 'object',
    properties: {
      status: int,
      code: { type: 'string', enum: [...ERROR_CODES] },
      msg: str,
      fields: { type: 'object', additionalProperties: str },
    },
    required: ['status', 'code', 'msg'],
  },
  {
    $id: 'Account',
    ...object({
      type: {
        type: 'string',
        enum: ['main', 'index', 'newstock', 'hk', 'us', 'competition'],
        description: 'competition: an account of a competition (competition/accounts.do)',
      },
      currency: { type: 'string', enum: ['CNY', 'HKD', 'USD'] },
      balance: num,
      available: { ...num, description: 'balance − funds held by pending limit orders' },
      frozenMargin: { ...num, description: 'margin of the open positions' },
      positionPnl: {
        ...num,
        description: 'net pnl (price pnl − fees charged so far) of the open positions at current prices',
      },
      totalAssets: {
        ...num,
        description:
          'balance + frozenMargin + price pnl of the open positions (fees already left the balance)',
      },
      todayPnl: { ...num, description: "Σ today's price pnl of the open positions (position.todayPnl)" },
      liquidationLine: { ...num, description: 'the risk ratio at which positions are closed' },
      warningLine: { ...num, description: 'the risk ratio below which the user is warned' },
      riskRatio: {
        ...nullable('number'),
        description:
          '(available cash + collateral of the positions) ÷ borrowed; null when nothing is borrowed',
      },
      borrowed: { ...num, description: 'what the open positions borrow (the risk ratio denominator)' },
      longValue: { ...num, description: 'value now of the long positions' },
      shortValue: { ...num, description: 'value now of the short positions' },
    }),
  },
  {
    $id: 'User',
    ...object({
      id: int,
      phone: { ...str, description: 'masked, 138****0000' },
      realName: nullable('string'),
      kycStatus: { type: 'string', enum: ['none', 'pending', 'passed', 'failed'] },
      kycFailReason: nullable('string'),
      hasBankCard: { type: 'boolean' },
      hasWithdrawPassword: { type: 'boolean' },
      inviteCode: str,
      accounts: { type: 'array', items: { $ref: 'Account#' } },
    }),
  },
  {
    $id: 'AuthResult',
    ...object({ token: { ...str, description: 'Bearer token' }, user: { $ref: 'User#' } }),
  },
  { $id: 'Quote', ...object(QUOTE_FIELDS) },
  {
    $id: 'IndexQuote',
    ...object({
      ...QUOTE_FIELDS,
      market: { type: 'string', enum: ['index'] },
      currency: {
        ...CURRENCY,
        description: "the index's own currency: a contract is worth points × multiplier of it",
      },
    }),
  },
  {
    $id: 'StockDetail',
    ...object({
      ...QUOTE_FIELDS,
      limitUp: nullable('number'),
      limitDown: nullable('number'),
      lotSize: { ...int, description: 'shares per lot' },
      currency: CURRENCY,
      status: { type: 'string', enum: ['trading', 'suspended', 'closed'] },
      tPlus: { type: 'boolean' },
    }),
  },
  {
    $id: 'Bar',
    description: '[time, open, high, low, close, volume] (+ running average price for intraday rows)',
    type: 'array',
    items: num,
    minItems: 6,
    maxItems: 7,
  },
  {
    $id: 'Position',
    ...object({
      id: int,
      code: str,
      name: str,
      market: { type: 'string', enum: [...MARKETS] },
      currency: {
        type: 'string',
        enum: ['CNY', 'HKD', 'USD'],
        description: "the currency of every amount (its account's); prices are the instrument's own",
      },
      fxRate: {
        ...num,
        description:
          'units of currency per unit of the price currency, fixed at the open: value = price × shares × fxRate',
      },
      direction: { type: 'string', enum: ['long', 'short'] },
      lots: int,
      shares: int,
      leverage: int,
      openPrice: num,
      currentPrice: num,
      margin: num,
      marketValue: num,
      buyFee: { ...num, description: 'all buy-side fees (HK buy stamp duty included)' },
      sellFee: { ...num, description: 'sell-side fees except stamp duty' },
      stampDuty: { ...num, description: 'sell-side stamp duty' },
      deferredFee: num,
      fees: { ...num, description: 'buyFee + sellFee + stampDuty + deferredFee charged so far' },
      pricePnl: { ...num, description: '(current or close − open price) × shares, before fees' },
      pnl: { ...num, description: 'pricePnl − fees: net of every fee charged so far' },
      yield: { ...num, description: 'pnl ÷ margin' },
      todayPnl: {
        ...nullable('number'),
        description:
          'open: (price − previous close, or − open price if opened today) × shares, before fees; closed: null',
      },
      stopProfit: nullable('number'),
      stopLoss: nullable('number'),
      liquidationPrice: nullable('number'),
      openedAt: int,
      closedAt: nullable('integer'),
      closePrice: nullable('number'),
      closeReason: {
        type: ['string', 'null'],
        enum: ['user', 'stop_profit', 'stop_loss', 'liquidation', 'expiry', null],
      },
      sellableFrom: { ...int, description: 'epoch ms from which it may be sold (T+1)' },
    }),
  },
  {
    $id: 'LedgerEntry',
    ...object({
      id: int,
      time: int,
      account: { type: 'string', enum: ['main', 'index', 'newstock', 'hk', 'us'] },
      type: str,
      amount: { ...num, description: 'signed: positive credits the account' },
      balanceAfter: num,
      refType: nullable('string'),
      refId: nullable('integer'),
      note: { ...nullable('string'), description: "in the request's language" },
      noteKey: {
        ...nullable('string'),
        description: "what the note says, as a key of the locales' stationTexts",
      },
      noteParams: {
        type: ['object', 'null'],
        additionalProperties: { type: ['string', 'number'] },
        description: "the note key's parameters",
      },
    }),
  },
  {
    $id: 'OrderBook',
    ...object(
      {
        bids: { type: 'array', maxItems: 5, items: { $ref: 'BookLevel#' } },
        asks: { type: 'array', maxItems: 5, items: { $ref: 'BookLevel#' } },
      },
      'A simulated 5-level book, best level first; empty while suspended, no level beyond the limits',
    ),
  },
  {
    $id: 'BookLevel',
    description: '[price, shares]',
    type: 'array',
    items: num,
    minItems: 2,
    maxItems: 2,
  },
] as const;

export function addSharedSchemas(app: FastifyInstance): void {
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
}

export function ref(id: (typeof SHARED_SCHEMAS)[number]['$id']) {
  return { $ref: `${id}#` } as const;
}

export function pageOf(item: unknown) {
  return object({ list: { type: 'array', items: item }, total: int, pageNum: int, pageSize: int });
}

/** Response schemas: the success envelope around `data`, and the error envelope. */
export function responses(data: unknown) {
  return {
    200: object({ status: { type: 'integer', enum: [0] }, msg: str, data }),
    '4xx': ref('ErrorEnvelope'),
    '5xx': ref('ErrorEnvelope'),
  };
}

/** A request object schema: named fields, no others, each string bounded. */
export function fields(properties: Record<string, unknown>, required: string[] = []) {
  return { type: 'object', properties, required, additionalProperties: false } as const;
}

// Common request fields. Strings carry a maxLength everywhere; rules with their own messages (phone,
// password, SMS code, lots) are checked with src/shared/validation so the form and the station agree.
export const phoneField = { type: 'string', maxLength: 32, description: '11 digits' } as const;
export const passwordField = {
  type: 'string',
  maxLength: 64,
  description: '6-12 of letters, digits and !@#$%^&*; whitespace is stripped',
} as const;
export const smsCodeField = { type: 'string', maxLength: 16, description: 'the 6-digit SMS code' } as const;
export const inviteCodeField = { type: 'string', maxLength: 16, pattern: '^[A-Za-z0-9]*$' } as const;
export const stockCodeField = {
  type: 'string',
  minLength: 1,
  maxLength: 12,
  pattern: '^[A-Za-z0-9]+$',
  description: 'e.g. 600519, 00700, AAPL',
} as const;
export const requestIdField = {
  type: 'string',
  minLength: 8,
  maxLength: 64,
  pattern: '^[A-Za-z0-9_-]+$',
  description: 'client-made UUID: the call runs once per user and requestId',
} as const;
/** The envelope of a bars answer: `{code, period, ...extra, bars}` (API.md `bars`). */
export function barsResponse(extra: Record<string, unknown> = {}, barsDescription = 'oldest first') {
  return responses({
    type: 'object',
    properties: {
      code: { type: 'string' },
      period: { type: 'string' },
      ...extra,
      bars: { type: 'array', description: barsDescription, items: ref('Bar') },
    },
    required: ['code', 'period', ...Object.keys(extra), 'bars'],
    additionalProperties: false,
  });
}

/** What the minute-bar calls' `bars` hold. */
export const MINUTE_BARS_DESCRIPTION =
  "oldest first; intraday: the current trading day's session so far, rows [time, open, high, low, close, volume, average]; 1, 5, 30, 60: the last five trading days up to now (a day's bars, then the next day's), rows [time, open, high, low, close, volume]; time is the bar's start (epoch ms)";

/** `before` of the day-bar calls: bars strictly before this epoch ms (the largest Date is 8.64e15). */
export const beforeField = {
  type: 'integer',
  minimum: 0,
  maximum: 8_640_000_000_000_000,
  description: 'epoch ms',
} as const;
/** `period` of the day-bar calls. */
export const dayPeriodField = { type: 'string', enum: ['day', 'week', 'month'], default: 'day' } as const;
/** `limit` of the day-bar calls, bounded by the settings. */
export function dayBarsLimitField(settings: { dayBarsMax: number; dayBarsDefault: number }) {
  return {
    type: 'integer',
    minimum: 1,
    maximum: settings.dayBarsMax,
    default: settings.dayBarsDefault,
  } as const;
}
export const lotsField = { type: 'integer', minimum: 1, maximum: 1_000_000 } as const;
export const pageNumField = { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 } as const;
export const pageSizeField = { type: 'integer', minimum: 1, maximum: 100, default: 15 } as const;
export const stockMarketField = { type: 'string', enum: ['a', 'star', 'hk', 'us'] } as const;
export const accountTypeField = { type: 'string', enum: ['main', 'index', 'newstock', 'hk', 'us'] } as const;

export const userSecurity: Record<string, string[]>[] = [{ bearerAuth: [] }, { cookieAuth: [] }];

/** POST bodies: form-encoded as the app sends them, or JSON (API.md "Requests"). */
export const postConsumes = ['application/x-www-form-urlencoded', 'application/json'];

/** The request fields of the competition calls: create.do and edit.do share theirs. */
import { COMPETITION_MARKETS } from '../competition-rules';
import { fields, requestIdField } from '../../platform';

export const competitionIdField = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
const timeField = { type: 'integer', minimum: 0, maximum: 8_640_000_000_000 } as const;
/** Major units, 2 decimals; at most a hundred million of each currency. */
const cashField = { type: 'number', minimum: 0, maximum: 100_000_000, multipleOf: 0.01 } as const;

const MARKET_CHOICE = COMPETITION_MARKETS.join('|');

const termFields = {
  name: { type: 'string', minLength: 1, maxLength: 64 },
  description: { type: 'string', maxLength: 1000, default: '' },
  startAt: { ...timeField, description: 'epoch ms, in the future' },
  endAt: { ...timeField, description: 'epoch ms, after startAt' },
  startingCash: {
    ...cashField,
    description:
      'yuan in the CNY competition account; with cashInCny, the whole starting cash in yuan, shared equally ' +
      'between the currencies of the markets allowed',
  },
  startingCashHkd: { ...cashField, description: 'HK dollars in the HKD competition account (default 0)' },
  startingCashUsd: { ...cashField, description: 'US dollars in the USD competition account (default 0)' },
  cashInCny: {
    type: 'boolean',
    default: false,
    description:
      'startingCash is one amount in yuan: each currency of the allowed markets (CNY for a, star, index and ' +
      'futures; HKD for hk; USD for us) gets an equal share, the foreign ones converted at the flash ' +
      'exchange’s mid rate of the create/edit and rounded down to the cent (CNY takes the leftover fen); ' +
      'then startingCashHkd and startingCashUsd must be absent',
  },
  markets: {
    type: 'string',
    maxLength: 64,
    pattern: `^(${MARKET_CHOICE})(,(${MARKET_CHOICE}))*$`,
    description: `the markets the competition trades, comma-separated: ${COMPETITION_MARKETS.join(',')}`,
  },
  maxLeverage: { type: 'integer', minimum: 1, maximum: 100, description: 'the largest leverage allowed' },
  allowShort: { type: 'boolean', description: 'whether short selling is allowed' },
  visibility: { type: 'string', enum: ['public', 'private'], description: 'private: joined with a code' },
  maxEntrants: { type: 'integer', minimum: 1, maximum: 1_000_000, description: 'no cap when absent' },
  requestId: requestIdField,
} as const;

const TERMS_REQUIRED = [
  'name',
  'startAt',
  'endAt',
  'startingCash',
  'markets',
  'maxLeverage',
  'allowShort',
  'visibility',
  'requestId',
];

export const createBody = fields(termFields, TERMS_REQUIRED);
export const editBody = fields({ id: competitionIdField, ...termFields }, ['id', ...TERMS_REQUIRED]);

const cash = { type: 'number' } as const;
const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;

export const competitionSchema = {
  type: 'object',
  properties: {
    id: int,
    name: str,
    description: str,
    startAt: int,
    endAt: int,
    state: { type: 'string', enum: ['upcoming', 'running', 'ended'] },
    startingCash: {
      type: 'object',
      properties: { CNY: cash, HKD: cash, USD: cash },
      required: ['CNY', 'HKD', 'USD'],
    },
    markets: { type: 'array', items: str },
    maxLeverage: int,
    allowShort: { type: 'boolean' },
    visibility: { type: 'string', enum: ['public', 'private'] },
    joinCode: { type: ['string', 'null'], description: 'a private competition’s code, to its creator only' },
    maxEntrants: { type: ['integer', 'null'] },
    entrants: int,
    frozen: { type: 'boolean', description: 'the ranking is final' },
  },
  required: [
    'id',
    'name',
    'description',
    'startAt',
    'endAt',
    'state',
    'startingCash',
    'markets',
    'maxLeverage',
    'allowShort',
    'visibility',
    'joinCode',
    'maxEntrants',
    'entrants',
    'frozen',
  ],
} as const;

export const myCompetitionSchema = {
  type: 'object',
  properties: {
    competition: competitionSchema,
    joined: { type: 'boolean' },
    isCreator: { type: 'boolean' },
    nickname: { type: ['string', 'null'] },
    rank: { type: ['integer', 'null'] },
    totalAssets: { type: ['number', 'null'], description: 'yuan' },
    returnPct: { type: ['number', 'null'], description: 'a fraction' },
  },
  required: ['competition', 'joined', 'isCreator', 'nickname', 'rank', 'totalAssets', 'returnPct'],
} as const;

export const leaderboardSchema = {
  type: 'object',
  properties: {
    list: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          rank: int,
          nickname: str,
          totalAssets: { type: 'number', description: 'yuan, at the station’s flash-exchange mid rates' },
          returnPct: { type: 'number', description: 'a fraction of the starting cash' },
        },
        required: ['rank', 'nickname', 'totalAssets', 'returnPct'],
      },
    },
    total: int,
    pageNum: int,
    pageSize: int,
    takenAt: { type: ['integer', 'null'] },
    frozen: { type: 'boolean' },
  },
  required: ['list', 'total', 'pageNum', 'pageSize', 'takenAt', 'frozen'],
} as const;

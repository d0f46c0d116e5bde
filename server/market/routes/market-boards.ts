/**
 * Market routes for the boards: counts of rising and falling stocks, suspended and resumed stocks, the
 * limit-up board and the Dragon Tiger list.
 */
import type { FastifyInstance } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import { ok, fields, responses, stockMarketField } from '../../platform';

/** Counts of one market's stocks by the day's move. */
export function moveCountsRoute(app: FastifyInstance): void {
  const { market } = app;
  app.get<{ Querystring: CallIn<'GET /api/stock/getZdfNumber.do'> }>(
    '/api/stock/getZdfNumber.do',
    {
      schema: {
        tags: ['market'],
        summary:
          "Counts of one market's stocks rising, falling, flat, at limit-up, at limit-down and suspended",
        querystring: fields({ market: stockMarketField }, ['market']),
        response: responses({
          type: 'object',
          properties: {
            market: { type: 'string' },
            rising: { type: 'integer' },
            falling: { type: 'integer' },
            flat: { type: 'integer' },
            limitUp: { type: 'integer' },
            limitDown: { type: 'integer' },
            suspended: { type: 'integer' },
            total: { type: 'integer' },
            time: { type: 'integer' },
          },
          required: [
            'market',
            'rising',
            'falling',
            'flat',
            'limitUp',
            'limitDown',
            'suspended',
            'total',
            'time',
          ],
          additionalProperties: false,
        }),
      },
    },
    async (request) => ok(market.moveCounts(request.query.market)),
  );
}

/** Stocks of one market suspended now or resumed lately. */
export function haltsRoute(app: FastifyInstance): void {
  const { market } = app;
  app.get<{ Querystring: CallIn<'GET /api/stock/getStop.do'> }>(
    '/api/stock/getStop.do',
    {
      schema: {
        tags: ['market'],
        summary: 'Stocks of one market suspended now, or resumed within the last five trading days',
        querystring: fields({ market: stockMarketField }, ['market']),
        response: responses({
          type: 'array',
          items: {
            type: 'object',
            properties: {
              code: { type: 'string' },
              name: { type: 'string' },
              market: { type: 'string' },
              state: { type: 'string', enum: ['suspended', 'resumed'] },
              since: {
                type: 'integer',
                description: 'local midnight of the first suspended or the resumption day',
              },
              days: { type: 'integer' },
              prevClose: { type: 'number' },
              price: { type: 'number' },
            },
            required: ['code', 'name', 'market', 'state', 'since', 'days', 'prevClose', 'price'],
            additionalProperties: false,
          },
        }),
      },
    },
    async (request) => ok(market.halts(request.query.market)),
  );
}

/** The limit-up board of one market. */
export function limitUpBoardRoute(app: FastifyInstance): void {
  const { market } = app;
  app.get<{ Querystring: CallIn<'GET /api/stock/getztb.do'> }>(
    '/api/stock/getztb.do',
    {
      schema: {
        tags: ['market'],
        summary: 'The limit-up board: stocks at their limit-up now, earliest to reach it first',
        querystring: fields({ market: stockMarketField }, ['market']),
        response: responses({
          type: 'array',
          items: {
            type: 'object',
            properties: {
              code: { type: 'string' },
              name: { type: 'string' },
              market: { type: 'string' },
              price: { type: 'number' },
              prevClose: { type: 'number' },
              changePct: { type: 'number' },
              turnover: { type: 'number' },
              firstReached: { type: 'integer', description: 'epoch ms' },
            },
            required: [
              'code',
              'name',
              'market',
              'price',
              'prevClose',
              'changePct',
              'turnover',
              'firstReached',
            ],
            additionalProperties: false,
          },
        }),
      },
    },
    async (request) => ok(market.limitUpBoard(request.query.market)),
  );
}

/** A seat on the Dragon Tiger list and what it bought and sold. */
const dragonTigerSeat = {
  type: 'object',
  properties: {
    seat: { type: 'string' },
    kind: { type: 'string', enum: ['institution', 'connect', 'branch'] },
    buy: { type: 'number', description: 'yuan' },
    sell: { type: 'number', description: 'yuan' },
  },
  required: ['seat', 'kind', 'buy', 'sell'],
  additionalProperties: false,
} as const;

/** One stock on the Dragon Tiger list with its top buying and selling seats. */
const dragonTigerEntry = {
  type: 'object',
  properties: {
    code: { type: 'string' },
    name: { type: 'string' },
    market: { type: 'string', enum: ['a', 'star'] },
    close: { type: 'number' },
    changePct: { type: 'number' },
    turnover: { type: 'number' },
    reason: { type: 'string', enum: ['rise', 'fall'] },
    buys: { type: 'array', items: dragonTigerSeat },
    sells: { type: 'array', items: dragonTigerSeat },
    net: { type: 'number', description: "the ten seats' buys minus their sells, yuan" },
  },
  required: ['code', 'name', 'market', 'close', 'changePct', 'turnover', 'reason', 'buys', 'sells', 'net'],
  additionalProperties: false,
} as const;

/** The Dragon Tiger list of the last complete trading day. */
export function dragonTigerRoute(app: FastifyInstance): void {
  const { market } = app;
  app.get<{ Querystring: CallIn<'GET /api/stock/getlhb.do'> }>(
    '/api/stock/getlhb.do',
    {
      schema: {
        tags: ['market'],
        summary:
          'The Dragon Tiger list (龙虎榜) of the last complete trading day: A-shares whose close deviated 7% or more, with their top five buying and selling seats (simulated from the seed)',
        querystring: fields({ market: { type: 'string', enum: ['a', 'star'], default: 'a' } }),
        response: responses({
          type: 'object',
          properties: {
            date: { type: 'string', description: 'YYYY-MM-DD' },
            list: { type: 'array', items: dragonTigerEntry },
          },
          required: ['date', 'list'],
          additionalProperties: false,
        }),
      },
    },
    async (request) => ok(market.dragonTiger(request.query.market ?? 'a')),
  );
}

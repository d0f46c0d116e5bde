/** Trading routes over open and closed positions: sell, margin top-up, stops, the list, and whether a code is held. */
import type { FastifyInstance } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import type { Market } from '../../../src/shared/api/types';
import { holding, listPositions, sell, setStops, topUp } from '../trading';
import {
  ok,
  fields,
  postConsumes,
  lotsField,
  pageNumField,
  pageOf,
  pageSizeField,
  ref,
  requestIdField,
  responses,
  stockCodeField,
  userSecurity,
} from '../../platform';
import { competitionIdField, lotsRule, marketField, positionIdField, priceField } from './trade-fields';

/** sell.do: close a position, or some lots of it. */
export function sellRoute(app: FastifyInstance): void {
  const { station } = app;
  app.post<{ Body: CallIn<'POST /user/sell.do'> }>(
    '/user/sell.do',
    {
      config: { fieldRules: { lots: (raw) => (raw === undefined ? null : lotsRule(raw)) } },
      schema: {
        tags: ['trade'],
        summary:
          'Sell (close) a position, long or short, or some lots of it; answers the closed part, or what remains open',
        security: userSecurity,
        consumes: postConsumes,
        body: fields(
          {
            positionId: positionIdField,
            lots: { ...lotsField, description: 'absent: the whole position' },
            competitionId: competitionIdField,
            requestId: requestIdField,
          },
          ['positionId', 'requestId'],
        ),
        response: responses(ref('Position')),
      },
    },
    async (request) => ok(await sell(station, app.auth.session(request).userId, request.body)),
  );
}

/** position/topUp.do: more margin for an open position. */
export function topUpRoute(app: FastifyInstance): void {
  const { station } = app;
  app.post<{ Body: CallIn<'POST /user/position/topUp.do'> }>(
    '/user/position/topUp.do',
    {
      schema: {
        tags: ['trade'],
        summary:
          "Top up an open position's margin from the account's available funds (lowers its liquidation risk)",
        security: userSecurity,
        consumes: postConsumes,
        body: fields(
          {
            positionId: positionIdField,
            amount: {
              type: 'number',
              minimum: -1e12,
              maximum: 1e12,
              description:
                "major units, 2 decimals, more than 0; at most what a long borrowed, or a short's open value",
            },
            requestId: requestIdField,
          },
          ['positionId', 'amount', 'requestId'],
        ),
        response: responses(ref('Position')),
      },
    },
    async (request) => ok(await topUp(station, app.auth.session(request).userId, request.body)),
  );
}

/** position/setStops.do: an open position's stop profit and stop loss. */
export function setStopsRoute(app: FastifyInstance): void {
  const { station } = app;
  app.post<{ Body: CallIn<'POST /user/position/setStops.do'> }>(
    '/user/position/setStops.do',
    {
      schema: {
        tags: ['trade'],
        summary:
          "Set an open position's stop profit and stop loss: they become exactly the ones given (an absent " +
          'one is removed); long: stop profit above the price, stop loss below it; short the other way round',
        security: userSecurity,
        consumes: postConsumes,
        body: fields(
          {
            positionId: positionIdField,
            stopProfit: { ...priceField, description: 'long: above the price; short: below it' },
            stopLoss: { ...priceField, description: 'long: below the price; short: above it' },
            requestId: requestIdField,
          },
          ['positionId', 'requestId'],
        ),
        response: responses(ref('Position')),
      },
    },
    async (request) => ok(await setStops(station, app.auth.session(request).userId, request.body)),
  );
}

/** position/list.do: open or closed positions, a page at a time. */
export function positionListRoute(app: FastifyInstance): void {
  const { station } = app;
  const { settings } = station.config;
  app.get<{
    Querystring: {
      state: 'open' | 'closed';
      market?: Market;
      competitionId?: number;
      pageNum: number;
      pageSize: number;
    };
  }>(
    '/user/position/list.do',
    {
      schema: {
        tags: ['trade'],
        summary: 'Open or closed positions, newest first, valued at the current price',
        security: userSecurity,
        querystring: fields(
          {
            state: { type: 'string', enum: ['open', 'closed'], default: 'open' },
            market: marketField,
            competitionId: competitionIdField,
            pageNum: pageNumField,
            pageSize: { ...pageSizeField, default: settings.pageSizeDefault },
          },
          [],
        ),
        response: responses(pageOf(ref('Position'))),
      },
    },
    async (request) => ok(await listPositions(station, app.auth.session(request).userId, request.query)),
  );
}

/** position/exitsStock.do: whether the user holds a code. */
export function holdingRoute(app: FastifyInstance): void {
  const { station } = app;
  app.get<{ Querystring: CallIn<'GET /user/position/exitsStock.do'> }>(
    '/user/position/exitsStock.do',
    {
      schema: {
        tags: ['trade'],
        summary: 'Whether the user holds a code (stock, index or futures) in an open position',
        security: userSecurity,
        querystring: fields({ code: stockCodeField }, ['code']),
        response: responses({
          type: 'object',
          properties: {
            held: { type: 'boolean' },
            lots: { type: 'integer', description: 'lots (contracts) over the open positions in the code' },
            positions: { type: 'integer', description: 'open positions in the code' },
          },
          required: ['held', 'lots', 'positions'],
          additionalProperties: false,
        }),
      },
    },
    async (request) => ok(await holding(station, app.auth.session(request).userId, request.query.code)),
  );
}

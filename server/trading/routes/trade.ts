/**
 * Trading calls: market buy on any market (buy.do) and in contracts (buyIndex.do, buyFutures.do), sell
 * (close all or part), margin top-up, the position list, whether a code is held, and the paper-account
 * reset. All need a session.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import type { Market } from '../../../src/shared/api/types';
import { checkLots } from '../../../src/shared/validation';
import { resetPaperAccount } from '../../ledger/accounts';
import { buy, holding, listPositions, sell, setStops, topUp, type BuyVenue } from '../trading';
import type { FieldRule } from '../../platform/http/fastify-types';
import { ok } from '../../platform/http/envelope';
import {
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
} from '../../platform/http/schemas';

/** The quantity messages of spec §5 for a lots field that failed its schema. */
const lotsRule: FieldRule = (raw) =>
  checkLots(typeof raw === 'number' || typeof raw === 'string' ? raw : undefined, lotsField.maximum) ??
  (raw === undefined || typeof raw === 'number' || typeof raw === 'string' ? null : 'lotsNotWhole');

const priceField = { type: 'number', exclusiveMinimum: 0, maximum: 10_000_000 } as const;
const marketField = { type: 'string', enum: ['a', 'star', 'hk', 'us', 'index', 'futures'] } as const;
const positionIdField = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
const directionField = {
  type: 'string',
  enum: ['long', 'short'],
  description: 'short: profits when the price falls',
} as const;

/** The request body of buyIndex.do and buyFutures.do. */
function contractBuyBody(leverages: readonly number[], maxContracts: number) {
  return fields(
    {
      code: stockCodeField,
      lots: { ...lotsField, description: `contracts, 1-${maxContracts}` },
      leverage: {
        type: 'integer',
        minimum: 1,
        maximum: 100,
        description: `one of ${leverages.join(', ')}`,
      },
      direction: directionField,
      stopProfit: { ...priceField, description: 'long: above the price; short: below it' },
      stopLoss: { ...priceField, description: 'long: below the price; short: above it' },
      requestId: requestIdField,
    },
    ['code', 'lots', 'leverage', 'direction', 'requestId'],
  );
}

export const tradePlugin: FastifyPluginAsync = async (app) => {
  const { station } = app;
  const { settings } = station.config;
  app.addHook('onRequest', app.auth.requireUser);

  app.post<{ Body: CallIn<'POST /user/buy.do'> }>(
    '/user/buy.do',
    {
      config: { fieldRules: { lots: lotsRule } },
      schema: {
        tags: ['trade'],
        summary: 'Market buy on any market: opens a position with margin = value ÷ leverage, plus fees',
        security: userSecurity,
        consumes: postConsumes,
        body: fields(
          {
            code: stockCodeField,
            lots: {
              ...lotsField,
              description:
                'A/STAR: 1 lot = 100 shares, 1-100; HK: board lots; US: shares; index/futures: contracts',
            },
            leverage: {
              type: 'integer',
              minimum: 1,
              maximum: 100,
              description: 'A: 1,2,3,5,10; HK/US: 1,2,5; index/futures: 1-20',
            },
            direction: {
              ...directionField,
              description: 'default long; short for indexes and futures (stocks only if the setting allows)',
            },
            stopProfit: priceField,
            stopLoss: priceField,
            requestId: requestIdField,
          },
          ['code', 'lots', 'leverage', 'requestId'],
        ),
        response: responses(ref('Position')),
      },
    },
    async (request) => ok(await buy(station, app.auth.session(request).userId, request.body)),
  );

  const contractVenues: { venue: Exclude<BuyVenue, 'any'>; path: string; what: string }[] = [
    { venue: 'index', path: '/user/buyIndex.do', what: 'an index (CFD-style: points × multiplier yuan)' },
    {
      venue: 'futures',
      path: '/user/buyFutures.do',
      what: 'a futures contract (price × contract multiplier)',
    },
  ];
  for (const { venue, path, what } of contractVenues) {
    app.post<{ Body: CallIn<'POST /user/buyIndex.do'> }>(
      path,
      {
        config: { fieldRules: { lots: lotsRule } },
        schema: {
          tags: ['trade'],
          summary: `Market order on ${what}, long or short, from the index account; lots are contracts`,
          security: userSecurity,
          consumes: postConsumes,
          body: contractBuyBody(settings.leverage[venue], settings.contractRules[venue].maxContractsPerOrder),
          response: responses(ref('Position')),
        },
      },
      async (request) => ok(await buy(station, app.auth.session(request).userId, request.body, venue)),
    );
  }

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
            requestId: requestIdField,
          },
          ['positionId', 'requestId'],
        ),
        response: responses(ref('Position')),
      },
    },
    async (request) => ok(await sell(station, app.auth.session(request).userId, request.body)),
  );

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

  app.get<{
    Querystring: { state: 'open' | 'closed'; market?: Market; pageNum: number; pageSize: number };
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

  app.post<{ Body: CallIn<'POST /user/account/reset.do'> }>(
    '/user/account/reset.do',
    {
      schema: {
        tags: ['trade'],
        summary:
          'Reset the paper account: every account back to its starting balance (one reset entry each); ' +
          'refused (RESET_BLOCKED) while a position is open or an order pending',
        security: userSecurity,
        consumes: postConsumes,
        body: fields({ requestId: requestIdField }, ['requestId']),
        response: responses({ type: 'array', items: ref('Account') }),
      },
    },
    async (request) =>
      ok(await resetPaperAccount(station, app.auth.session(request).userId, request.body.requestId)),
  );
};

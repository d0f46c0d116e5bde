/** Trading routes that open a position: market buy on any market (buy.do), on an index or a futures contract. */
import type { FastifyInstance } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import { buy, type BuyVenue } from '../trading';
import {
  ok,
  fields,
  postConsumes,
  lotsField,
  ref,
  requestIdField,
  responses,
  stockCodeField,
  userSecurity,
} from '../../platform';
import { competitionIdField, directionField, lotsRule, priceField } from './trade-fields';

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
      competitionId: competitionIdField,
      requestId: requestIdField,
    },
    ['code', 'lots', 'leverage', 'direction', 'requestId'],
  );
}

/** buy.do: a market buy on any market. */
export function buyRoute(app: FastifyInstance): void {
  const { station } = app;
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
            competitionId: competitionIdField,
            requestId: requestIdField,
          },
          ['code', 'lots', 'leverage', 'requestId'],
        ),
        response: responses(ref('Position')),
      },
    },
    async (request) => ok(await buy(station, app.auth.session(request).userId, request.body)),
  );
}

/** buyIndex.do and buyFutures.do: market orders on contracts, long or short, from the index account. */
export function contractBuyRoutes(app: FastifyInstance): void {
  const { station } = app;
  const { settings } = station.config;
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
}

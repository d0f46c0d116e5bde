/** The simulated exchange rates between the station's currencies (CNY, HKD, USD), with a daily drift. */
import type { FastifyPluginAsync } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import { midRate } from '../../../src/shared/flash-exchange';
import { AppError, ok, responses } from '../../platform';

const currencies = {
  type: 'object',
  properties: { CNY: { type: 'number' }, HKD: { type: 'number' }, USD: { type: 'number' } },
  required: ['CNY', 'HKD', 'USD'],
  additionalProperties: false,
} as const;

export const exchangeRatePlugin: FastifyPluginAsync = async (app) => {
  const currency = { type: 'string', enum: ['CNY', 'HKD', 'USD'] } as const;
  app.get<{ Querystring: CallIn<'GET /api/site/exchange/rate'> }>(
    '/api/site/exchange/rate',
    {
      schema: {
        tags: ['market'],
        summary:
          "Today's simulated CNY / HKD / USD exchange rates (one set per UTC day, seeded by MARKET_SEED)",
        // spec §7: exchange/rate (source, target); with both, the answer adds that pair's mid rate.
        querystring: {
          type: 'object',
          properties: { source: currency, target: currency },
          additionalProperties: false,
        },
        response: responses({
          type: 'object',
          properties: {
            date: { type: 'string' },
            time: { type: 'integer' },
            perUsd: { ...currencies, description: 'units of each currency for one US dollar' },
            cnyPer: { ...currencies, description: 'yuan for one unit of each currency' },
            pair: {
              type: 'object',
              description:
                'with source and target: units of the target for one unit of the source (no spread)',
              properties: {
                source: { type: 'string' },
                target: { type: 'string' },
                rate: { type: 'number' },
              },
              required: ['source', 'target', 'rate'],
              additionalProperties: false,
            },
          },
          required: ['date', 'time', 'perUsd', 'cnyPer'],
          additionalProperties: false,
        }),
      },
    },
    async (request) => {
      const rates = app.market.exchangeRates();
      const { source, target } = request.query;
      if (source === undefined && target === undefined) return ok(rates);
      if (source === undefined) throw new AppError('VALIDATION', { fields: { source: 'required' } });
      if (target === undefined) throw new AppError('VALIDATION', { fields: { target: 'required' } });
      return ok({ ...rates, pair: { source, target, rate: midRate(rates.cnyPer, source, target) } });
    },
  );
};

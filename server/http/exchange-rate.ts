/** The simulated exchange rates between the station's currencies (CNY, HKD, USD), with a daily drift. */
import type { FastifyPluginAsync } from 'fastify';
import { ok } from './envelope';
import { responses } from './schemas';

const currencies = {
  type: 'object',
  properties: { CNY: { type: 'number' }, HKD: { type: 'number' }, USD: { type: 'number' } },
  required: ['CNY', 'HKD', 'USD'],
  additionalProperties: false,
} as const;

export const exchangeRatePlugin: FastifyPluginAsync = async (app) => {
  app.get(
    '/api/site/exchange/rate',
    {
      schema: {
        tags: ['market'],
        summary:
          "Today's simulated CNY / HKD / USD exchange rates (one set per UTC day, seeded by MARKET_SEED)",
        querystring: { type: 'object', properties: {}, additionalProperties: false },
        response: responses({
          type: 'object',
          properties: {
            date: { type: 'string' },
            time: { type: 'integer' },
            perUsd: { ...currencies, description: 'units of each currency for one US dollar' },
            cnyPer: { ...currencies, description: 'yuan for one unit of each currency' },
          },
          required: ['date', 'time', 'perUsd', 'cnyPer'],
          additionalProperties: false,
        }),
      },
    },
    async () => ok(app.market.exchangeRates()),
  );
};

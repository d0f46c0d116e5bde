/** Market data of the simulated exchange: quote lists, single stocks, day and minute bars. */
import type { FastifyPluginAsync } from 'fastify';
import type { CallIn } from '../../src/shared/api/calls';
import { QUOTE_SORTS, type QuoteSort } from '../market/market-service';
import { ok } from './envelope';
import {
  fields,
  pageNumField,
  pageOf,
  pageSizeField,
  ref,
  responses,
  stockCodeField,
  stockMarketField,
} from './schemas';

/** Names, codes and pinyin: letters (any script), digits, spaces and . & - only. */
const keywordField = { type: 'string', maxLength: 32, pattern: '^[\\p{L}\\p{N} .&-]*$' } as const;

export const marketPlugin: FastifyPluginAsync = async (app) => {
  const { market, config } = app;

  app.get<{ Querystring: CallIn<'GET /api/stock/getStock.do'> & { pageNum: number; pageSize: number } }>(
    '/api/stock/getStock.do',
    {
      schema: {
        tags: ['market'],
        summary: 'A page of quotes of one market, optionally filtered and sorted',
        querystring: fields(
          {
            market: stockMarketField,
            pageNum: pageNumField,
            pageSize: { ...pageSizeField, default: config.settings.pageSizeDefault },
            keyword: {
              ...keywordField,
              description: 'matches code, Chinese or English name, pinyin initials',
            },
            sort: { type: 'string', enum: [...QUOTE_SORTS] },
          },
          ['market'],
        ),
        response: responses(pageOf(ref('Quote'))),
      },
    },
    async (request) => {
      const q = request.query;
      return ok(
        market.list(q.market, {
          keyword: q.keyword,
          sort: q.sort as QuoteSort | undefined,
          pageNum: q.pageNum,
          pageSize: q.pageSize,
        }),
      );
    },
  );

  app.get<{ Querystring: CallIn<'GET /api/stock/getSingleStock.do'> }>(
    '/api/stock/getSingleStock.do',
    {
      schema: {
        tags: ['market'],
        summary: 'One stock: quote, price limits, lot size, currency, status, T+1',
        querystring: fields({ code: stockCodeField }, ['code']),
        response: responses(ref('StockDetail')),
      },
    },
    async (request) => ok(market.detail(market.get(request.query.code))),
  );

  app.get<{ Querystring: CallIn<'GET /api/stock/getDayK.do'> & { limit: number } }>(
    '/api/stock/getDayK.do',
    {
      schema: {
        tags: ['market'],
        summary: 'Day, week or month bars, oldest first (the last one is today so far)',
        querystring: fields(
          {
            code: stockCodeField,
            period: { type: 'string', enum: ['day', 'week', 'month'], default: 'day' },
            adjust: {
              type: 'string',
              enum: ['none', 'forward', 'backward'],
              default: 'none',
              description: 'accepted; the simulation has no dividends or splits yet, so all three agree',
            },
            before: { type: 'integer', minimum: 0, maximum: 8_640_000_000_000_000, description: 'epoch ms' },
            limit: {
              type: 'integer',
              minimum: 1,
              maximum: config.settings.dayBarsMax,
              default: config.settings.dayBarsDefault,
            },
          },
          ['code'],
        ),
        response: responses({
          type: 'object',
          properties: {
            code: { type: 'string' },
            period: { type: 'string' },
            adjust: { type: 'string' },
            bars: { type: 'array', items: ref('Bar') },
          },
          required: ['code', 'period', 'adjust', 'bars'],
          additionalProperties: false,
        }),
      },
    },
    async (request) => {
      const q = request.query;
      const instrument = market.get(q.code);
      return ok({
        code: instrument.code,
        period: q.period,
        adjust: q.adjust,
        bars: market.dayBars(instrument, q.period, q.limit, q.before),
      });
    },
  );

  app.get<{ Querystring: CallIn<'GET /api/stock/getMinK_Echarts.do'> }>(
    '/api/stock/getMinK_Echarts.do',
    {
      schema: {
        tags: ['market'],
        summary: "Today's minute bars (intraday rows add the running average price)",
        querystring: fields(
          {
            code: stockCodeField,
            period: { type: 'string', enum: ['intraday', '1', '5', '30', '60'], default: 'intraday' },
          },
          ['code'],
        ),
        response: responses({
          type: 'object',
          properties: {
            code: { type: 'string' },
            period: { type: 'string' },
            bars: { type: 'array', items: ref('Bar') },
          },
          required: ['code', 'period', 'bars'],
          additionalProperties: false,
        }),
      },
    },
    async (request) => {
      const instrument = market.get(request.query.code);
      return ok({
        code: instrument.code,
        period: request.query.period,
        bars: market.minuteBars(instrument, request.query.period),
      });
    },
  );
};

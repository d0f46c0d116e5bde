/** Market data of the simulated exchange: quote lists, single stocks, day and minute bars. */
import type { FastifyPluginAsync } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import { QUOTE_SORTS, type QuoteSort } from '../market-service';
import type { StockMarket } from '../../../src/shared/api/types';
import { AppError } from '../../platform/errors';
import { BodyCache } from '../../platform/http/cached-body';
import { ok } from '../../platform/http/envelope';
import {
  barsResponse,
  MINUTE_BARS_DESCRIPTION,
  beforeField,
  dayBarsLimitField,
  dayPeriodField,
  fields,
  pageNumField,
  pageOf,
  pageSizeField,
  ref,
  responses,
  SHARED_SCHEMAS,
  stockCodeField,
  stockMarketField,
} from '../../platform/http/schemas';

const STOCK_DETAIL = SHARED_SCHEMAS.find((schema) => schema.$id === 'StockDetail') as unknown as {
  properties: Record<string, unknown>;
  required: string[];
};

/** Names, codes and pinyin: letters (any script), digits, spaces and . & - only. */
const keywordField = { type: 'string', maxLength: 32, pattern: '^[\\p{L}\\p{N} .&-]*$' } as const;

export const marketPlugin: FastifyPluginAsync = async (app) => {
  const { market, config } = app;
  // Quote pages hold for the clock second they were computed in; bars until their instrument's minute moves.
  const pages = new BodyCache(256);
  const bars = new BodyCache(128);

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
    async (request, reply) => {
      const q = request.query;
      const second = Math.floor(market.now() / 1000);
      const key = `${q.market}|${q.sort ?? ''}|${q.keyword ?? ''}|${q.pageNum}|${q.pageSize}|${second}`;
      return pages.send(request, reply, key, () =>
        ok(
          market.list(q.market, {
            keyword: q.keyword,
            sort: q.sort as QuoteSort | undefined,
            pageNum: q.pageNum,
            pageSize: q.pageSize,
          }),
        ),
      );
    },
  );

  app.get<{ Querystring: CallIn<'GET /api/stock/getSingleStock.do'> }>(
    '/api/stock/getSingleStock.do',
    {
      schema: {
        tags: ['market'],
        summary:
          'One stock: quote, price limits, lot size, currency, status, T+1, and a simulated 5-level order book',
        querystring: fields({ code: stockCodeField }, ['code']),
        response: responses({
          type: 'object',
          properties: {
            ...STOCK_DETAIL.properties,
            book: ref('OrderBook'),
          },
          required: [...STOCK_DETAIL.required, 'book'],
          additionalProperties: false,
        }),
      },
    },
    async (request) => {
      const instrument = market.get(request.query.code);
      const now = market.now();
      return ok({ ...market.detail(instrument, now), book: market.orderBook(instrument, now) });
    },
  );

  app.get<{ Querystring: CallIn<'GET /api/realTime/findStock.do'> & { limit: number } }>(
    '/api/realTime/findStock.do',
    {
      schema: {
        tags: ['market'],
        summary: 'Search every market by code, Chinese or English name or pinyin initials; exact codes first',
        querystring: fields(
          {
            keyword: { ...keywordField, minLength: 1 },
            limit: { type: 'integer', minimum: 1, maximum: 50, default: 20 },
          },
          ['keyword'],
        ),
        response: responses({ type: 'array', items: ref('Quote') }),
      },
    },
    async (request) => ok(market.search(request.query.keyword, request.query.limit)),
  );

  app.get<{
    Querystring: CallIn<'GET /api/stock/getStockSort.do'> & { pageNum: number; pageSize: number };
  }>(
    '/api/stock/getStockSort.do',
    {
      schema: {
        tags: ['market'],
        summary: 'A page of one market sorted by change, turnover or price',
        querystring: fields(
          {
            market: stockMarketField,
            field: { type: 'string', enum: ['changePct', 'turnover', 'price'], default: 'changePct' },
            order: { type: 'string', enum: ['asc', 'desc'], default: 'desc' },
            pageNum: pageNumField,
            pageSize: { ...pageSizeField, default: config.settings.pageSizeDefault },
          },
          ['market'],
        ),
        response: responses(pageOf(ref('Quote'))),
      },
    },
    async (request, reply) => {
      const q = request.query;
      const sort = (q.order === 'desc' ? `-${q.field}` : q.field) as QuoteSort;
      const second = Math.floor(market.now() / 1000);
      const key = `${q.market}|${sort}||${q.pageNum}|${q.pageSize}|${second}`;
      return pages.send(request, reply, key, () =>
        ok(market.list(q.market, { sort, pageNum: q.pageNum, pageSize: q.pageSize })),
      );
    },
  );

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

  app.get<{ Querystring: CallIn<'GET /api/stock/getSingleStockByCode.do'> }>(
    '/api/stock/getSingleStockByCode.do',
    {
      schema: {
        tags: ['market'],
        summary:
          'One stock by a bare code or one with its exchange prefix (sh600519, sz000001, hk00700, usAAPL)',
        querystring: fields(
          { code: { type: 'string', minLength: 1, maxLength: 12, pattern: '^[A-Za-z0-9]+$' } },
          ['code'],
        ),
        response: responses(ref('StockDetail')),
      },
    },
    async (request) => {
      const instrument = market.findByPrefixedCode(request.query.code);
      if (!instrument) throw new AppError('NOT_FOUND');
      return ok(market.detail(instrument));
    },
  );

  app.get<{ Querystring: { market: StockMarket; by: 'gainers' | 'losers' | 'turnover'; limit: number } }>(
    '/api/stock/getTop.do',
    {
      schema: {
        tags: ['market'],
        summary: "The top stocks of one market by today's rise, fall or turnover",
        querystring: fields(
          {
            market: stockMarketField,
            by: { type: 'string', enum: ['gainers', 'losers', 'turnover'], default: 'gainers' },
            limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
          },
          ['market'],
        ),
        response: responses({ type: 'array', items: ref('Quote') }),
      },
    },
    async (request) => ok(market.top(request.query.market, request.query.by, request.query.limit)),
  );

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

  const lhbSeat = {
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
            list: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  code: { type: 'string' },
                  name: { type: 'string' },
                  market: { type: 'string', enum: ['a', 'star'] },
                  close: { type: 'number' },
                  changePct: { type: 'number' },
                  turnover: { type: 'number' },
                  reason: { type: 'string', enum: ['rise', 'fall'] },
                  buys: { type: 'array', items: lhbSeat },
                  sells: { type: 'array', items: lhbSeat },
                  net: { type: 'number', description: "the ten seats' buys minus their sells, yuan" },
                },
                required: [
                  'code',
                  'name',
                  'market',
                  'close',
                  'changePct',
                  'turnover',
                  'reason',
                  'buys',
                  'sells',
                  'net',
                ],
                additionalProperties: false,
              },
            },
          },
          required: ['date', 'list'],
          additionalProperties: false,
        }),
      },
    },
    async (request) => ok(market.dragonTiger(request.query.market ?? 'a')),
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
            period: dayPeriodField,
            adjust: {
              type: 'string',
              enum: ['none', 'forward', 'backward'],
              default: 'none',
              description:
                'none: as traded; forward: earlier prices scaled to today (前复权); backward: later prices scaled from the first day (后复权)',
            },
            before: beforeField,
            limit: dayBarsLimitField(config.settings),
          },
          ['code'],
        ),
        response: barsResponse({ adjust: { type: 'string' } }),
      },
    },
    async (request, reply) => {
      const q = request.query;
      const instrument = market.get(q.code);
      const key = `${instrument.code}|${q.period}|${q.adjust}|${q.limit}|${q.before ?? ''}|${market.barClock(instrument)}`;
      return bars.send(request, reply, key, () =>
        ok({
          code: instrument.code,
          period: q.period,
          adjust: q.adjust,
          bars: market.dayBars(instrument, q.period, q.limit, q.before, q.adjust),
        }),
      );
    },
  );

  app.get<{ Querystring: CallIn<'GET /api/stock/getMinK_Echarts.do'> }>(
    '/api/stock/getMinK_Echarts.do',
    {
      schema: {
        tags: ['market'],
        summary:
          "Minute bars, oldest first: intraday is today's session so far (rows add the running average price); 1, 5, 30 and 60 minutes cover the last five trading days up to now",
        querystring: fields(
          {
            code: stockCodeField,
            period: { type: 'string', enum: ['intraday', '1', '5', '30', '60'], default: 'intraday' },
          },
          ['code'],
        ),
        response: barsResponse({}, MINUTE_BARS_DESCRIPTION),
      },
    },
    async (request, reply) => {
      const instrument = market.get(request.query.code);
      const { period } = request.query;
      const key = `min|${instrument.code}|${period}|${market.barClock(instrument)}`;
      return bars.send(request, reply, key, () =>
        ok({ code: instrument.code, period, bars: market.minuteBars(instrument, period) }),
      );
    },
  );
};

/** Futures of the simulated exchange: exchanges and their products, one product, day and minute bars. */
import type { FastifyPluginAsync } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import type { FuturesExchange } from '../../../src/shared/api/types';
import {
  ok,
  barsResponse,
  beforeField,
  dayBarsLimitField,
  dayPeriodField,
  fields,
  MINUTE_BARS_DESCRIPTION,
  responses,
} from '../../platform';

const EXCHANGES: readonly Omit<FuturesExchange, 'products'>[] = [
  { exchange: 'CFFEX', name: '中国金融期货交易所', nameEn: 'China Financial Futures Exchange' },
  { exchange: 'SHFE', name: '上海期货交易所', nameEn: 'Shanghai Futures Exchange' },
  { exchange: 'INE', name: '上海国际能源交易中心', nameEn: 'Shanghai International Energy Exchange' },
  { exchange: 'DCE', name: '大连商品交易所', nameEn: 'Dalian Commodity Exchange' },
  { exchange: 'CZCE', name: '郑州商品交易所', nameEn: 'Zhengzhou Commodity Exchange' },
];
const exchangeEnum = EXCHANGES.map((e) => e.exchange);

const futuresCodeField = { type: 'string', minLength: 1, maxLength: 10, pattern: '^[A-Za-z0-9]+$' } as const;

const futuresQuote = {
  type: 'object',
  properties: {
    code: { type: 'string' },
    name: { type: 'string' },
    market: { type: 'string', enum: ['futures'] },
    price: { type: 'number' },
    prevClose: { type: 'number' },
    open: { type: 'number' },
    high: { type: 'number' },
    low: { type: 'number' },
    change: { type: 'number' },
    changePct: { type: 'number', description: 'a fraction: 0.0123 is +1.23%' },
    volume: { type: 'number', description: 'contracts' },
    turnover: { type: 'number' },
    time: { type: 'integer', description: 'epoch ms' },
    exchange: { type: 'string', enum: exchangeEnum },
    multiplier: { type: 'number', description: 'units of the underlying per contract' },
    unit: { type: 'string' },
    tick: { type: 'number' },
    limitUp: { type: ['number', 'null'] },
    limitDown: { type: ['number', 'null'] },
    status: { type: 'string', enum: ['trading', 'closed'] },
    sessions: {
      type: 'array',
      items: { type: 'string' },
      description: 'local Shanghai "HH:MM-HH:MM"; a night session may run past midnight',
    },
  },
  required: [
    'code',
    'name',
    'market',
    'price',
    'prevClose',
    'open',
    'high',
    'low',
    'change',
    'changePct',
    'volume',
    'turnover',
    'time',
    'exchange',
    'multiplier',
    'unit',
    'tick',
    'limitUp',
    'limitDown',
    'status',
    'sessions',
  ],
  additionalProperties: false,
} as const;

export const futuresMarketPlugin: FastifyPluginAsync = async (app) => {
  const { market, config } = app;

  app.get<{ Querystring: CallIn<'GET /api/futures/queryExchange.do'> }>(
    '/api/futures/queryExchange.do',
    {
      schema: {
        tags: ['market'],
        summary: 'The futures exchanges with the quotes of their products (or of one exchange)',
        querystring: fields({ exchange: { type: 'string', enum: exchangeEnum } }),
        response: responses({
          type: 'array',
          items: {
            type: 'object',
            properties: {
              exchange: { type: 'string', enum: exchangeEnum },
              name: { type: 'string' },
              nameEn: { type: 'string' },
              products: { type: 'array', items: futuresQuote },
            },
            required: ['exchange', 'name', 'nameEn', 'products'],
            additionalProperties: false,
          },
        }),
      },
    },
    async (request) => {
      const now = market.now();
      const quotes = market.futures().map((def) => market.futuresQuote(market.getFutures(def.code), now));
      const wanted = request.query.exchange;
      return ok(
        EXCHANGES.filter((e) => wanted === undefined || e.exchange === wanted).map((e): FuturesExchange => ({
          ...e,
          products: quotes.filter((q) => q.exchange === e.exchange),
        })),
      );
    },
  );

  app.get<{ Querystring: CallIn<'GET /api/futures/querySingleMarket.do'> }>(
    '/api/futures/querySingleMarket.do',
    {
      schema: {
        tags: ['market'],
        summary: "One futures product's main contract: quote, multiplier, tick, limits, sessions",
        querystring: fields({ code: futuresCodeField }, ['code']),
        response: responses(futuresQuote),
      },
    },
    async (request) => ok(market.futuresQuote(market.getFutures(request.query.code))),
  );

  app.get<{ Querystring: CallIn<'GET /api/stock/getFuturesDayK.do'> & { limit: number } }>(
    '/api/stock/getFuturesDayK.do',
    {
      schema: {
        tags: ['market'],
        summary: "A futures product's day, week or month bars, oldest first (the last one is today so far)",
        querystring: fields(
          {
            code: futuresCodeField,
            period: dayPeriodField,
            before: beforeField,
            limit: dayBarsLimitField(config.settings),
          },
          ['code'],
        ),
        response: barsResponse(),
      },
    },
    async (request) => {
      const q = request.query;
      const instrument = market.getFutures(q.code);
      return ok({
        code: instrument.code,
        period: q.period,
        bars: market.dayBars(instrument, q.period, q.limit, q.before),
      });
    },
  );

  app.get<{ Querystring: CallIn<'GET /api/stock/getFuturesMinK_Echarts.do'> }>(
    '/api/stock/getFuturesMinK_Echarts.do',
    {
      schema: {
        tags: ['market'],
        summary:
          "A futures product's minute bars: today's session (intraday, with the running average) or the last five trading days",
        querystring: fields(
          {
            code: futuresCodeField,
            period: { type: 'string', enum: ['intraday', '1', '5', '30', '60'], default: 'intraday' },
          },
          ['code'],
        ),
        response: barsResponse({}, MINUTE_BARS_DESCRIPTION),
      },
    },
    async (request) => {
      const instrument = market.getFutures(request.query.code);
      return ok({
        code: instrument.code,
        period: request.query.period,
        bars: market.minuteBars(instrument, request.query.period),
      });
    },
  );
};

/** Market indexes of the simulated exchange: lists, single quotes, day and minute bars. */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import {
  ok,
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
} from '../../platform';

const indexCodeField = { type: 'string', minLength: 1, maxLength: 10, pattern: '^[A-Za-z0-9]+$' } as const;

/** Quotes of every index, or of one region's. */
function indexListRoute(app: FastifyInstance): void {
  const { market } = app;
  app.get<{ Querystring: CallIn<'GET /api/index/queryListIndex.do'> }>(
    '/api/index/queryListIndex.do',
    {
      schema: {
        tags: ['market'],
        summary:
          'Quotes of the indexes (Shanghai, Shenzhen, ChiNext, CSI 300, STAR 50, Hang Seng, Dow, Nasdaq, S&P 500, …)',
        querystring: fields({ region: { type: 'string', enum: ['cn', 'hk', 'us'] } }),
        response: responses({ type: 'array', items: ref('Quote') }),
      },
    },
    async (request) => ok(market.indexList(request.query.region)),
  );
}

/** One index's quote. */
function indexQuoteRoute(app: FastifyInstance): void {
  const { market } = app;
  app.get<{ Querystring: CallIn<'GET /api/index/querySingleIndex.do'> }>(
    '/api/index/querySingleIndex.do',
    {
      schema: {
        tags: ['market'],
        summary: 'One index quote',
        querystring: fields({ code: indexCodeField }, ['code']),
        response: responses(ref('IndexQuote')),
      },
    },
    async (request) => {
      const index = market.getIndex(request.query.code);
      return ok({ ...market.indexQuote(index), currency: index.currency });
    },
  );
}

/** The indexes' market reports, a page at a time. */
function indexNewsRoute(app: FastifyInstance): void {
  const { market } = app;
  app.get<{
    Querystring: CallIn<'GET /api/index/queryIndexNews.do'> & { pageNum: number; pageSize: number };
  }>(
    '/api/index/queryIndexNews.do',
    {
      schema: {
        tags: ['market'],
        summary:
          "Simulated market reports of the indexes' last ten complete trading days (of one index or region), newest first",
        querystring: fields({
          code: indexCodeField,
          region: { type: 'string', enum: ['cn', 'hk', 'us'] },
          pageNum: pageNumField,
          pageSize: pageSizeField,
        }),
        response: responses(
          pageOf({
            type: 'object',
            properties: {
              id: { type: 'string' },
              code: { type: 'string' },
              time: { type: 'integer', description: 'epoch ms: the close of that day' },
              title: { type: 'string' },
              titleEn: { type: 'string' },
              summary: { type: 'string' },
              summaryEn: { type: 'string' },
              changePct: { type: 'number' },
              close: { type: 'number' },
            },
            required: [
              'id',
              'code',
              'time',
              'title',
              'titleEn',
              'summary',
              'summaryEn',
              'changePct',
              'close',
            ],
            additionalProperties: false,
          }),
        ),
      },
    },
    async (request) => {
      const q = request.query;
      if (q.code !== undefined) market.getIndex(q.code); // NOT_FOUND for an unknown index
      const all = market.indexNews({ code: q.code, region: q.region });
      const start = (q.pageNum - 1) * q.pageSize;
      return ok({
        list: all.slice(start, start + q.pageSize),
        total: all.length,
        pageNum: q.pageNum,
        pageSize: q.pageSize,
      });
    },
  );
}

/** An index's day, week or month bars. */
function indexDayBarsRoute(app: FastifyInstance): void {
  const { market, config } = app;
  app.get<{ Querystring: CallIn<'GET /api/stock/getIndexDayK.do'> & { limit: number } }>(
    '/api/stock/getIndexDayK.do',
    {
      schema: {
        tags: ['market'],
        summary: "An index's day, week or month bars, oldest first (the last one is today so far)",
        querystring: fields(
          {
            code: indexCodeField,
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
      const index = market.getIndex(q.code);
      return ok({
        code: index.code,
        period: q.period,
        bars: market.dayBars(index, q.period, q.limit, q.before),
      });
    },
  );
}

/** An index's minute bars. */
function indexMinuteBarsRoute(app: FastifyInstance): void {
  const { market } = app;
  app.get<{ Querystring: CallIn<'GET /api/stock/getIndexMinK_Echarts.do'> }>(
    '/api/stock/getIndexMinK_Echarts.do',
    {
      schema: {
        tags: ['market'],
        summary:
          "An index's minute bars: today's session (intraday, with the running average) or the last five trading days",
        querystring: fields(
          {
            code: indexCodeField,
            period: { type: 'string', enum: ['intraday', '1', '5', '30', '60'], default: 'intraday' },
          },
          ['code'],
        ),
        response: barsResponse({}, MINUTE_BARS_DESCRIPTION),
      },
    },
    async (request) => {
      const index = market.getIndex(request.query.code);
      return ok({
        code: index.code,
        period: request.query.period,
        bars: market.minuteBars(index, request.query.period),
      });
    },
  );
}

export const indexMarketPlugin: FastifyPluginAsync = async (app) => {
  indexListRoute(app);
  indexQuoteRoute(app);
  indexNewsRoute(app);
  indexDayBarsRoute(app);
  indexMinuteBarsRoute(app);
};

/**
 * Market routes for what a broker app shows about a stock beyond its quote: its figures (market cap, P/E,
 * turnover rate, 52-week range, shares, dividend yield) and its own news, both worked out from the seeded
 * market (stock-facts.ts). Index and futures codes have neither (NOT_A_STOCK).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import { CONTENT_LANGS, isContentLang, type ContentLang } from '../../../src/shared/content';
import type { Instrument } from '../catalogue';
import {
  AppError,
  ok,
  fields,
  pageNumField,
  pageOf,
  pageSizeField,
  responses,
  stockCodeField,
} from '../../platform';

const num = { type: 'number' } as const;
const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;

function object(properties: Record<string, unknown>) {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  } as const;
}

const langField = {
  type: 'string',
  enum: [...CONTENT_LANGS],
  description: 'the reader language; default: Accept-Language',
} as const;

const newsItem = {
  id: { type: 'string', description: '<code>-<yyyymmdd>-<kind>: stable' },
  code: str,
  kind: {
    type: 'string',
    enum: ['close', 'results', 'dividend'],
    description:
      "close: the day's report from its bar; results: trailing earnings per share (a quarterly reporting day); dividend: an ex-dividend date of the price history",
  },
  title: str,
  summary: str,
  source: str,
  publishedAt: int,
  lang: { type: 'string', enum: [...CONTENT_LANGS] },
};

/** The stock of a stock-only call: NOT_A_STOCK for an index or futures code, NOT_FOUND for none at all. */
function stockOf(app: FastifyInstance, code: string): Instrument {
  const tradable = app.market.findTradable(code);
  if (!tradable) throw new AppError('NOT_FOUND');
  if (tradable.market === 'index' || tradable.market === 'futures') throw new AppError('NOT_A_STOCK');
  return tradable.instrument;
}

/** `?lang=`, else the request's Accept-Language (zh-CN when none fits): as the content area's news. */
function readerLang(
  app: FastifyInstance,
  request: FastifyRequest,
  lang: ContentLang | undefined,
): ContentLang {
  if (lang) return lang;
  const resolved = app.i18n.resolve(request.headers['accept-language']);
  return isContentLang(resolved) ? resolved : 'zh-CN';
}

/** A stock's figures at the moment. */
export function stockFiguresRoute(app: FastifyInstance): void {
  app.get<{ Querystring: CallIn<'GET /api/stock/getStockFigures.do'> }>(
    '/api/stock/getStockFigures.do',
    {
      schema: {
        tags: ['market'],
        summary:
          "A stock's figures: market cap, P/E (TTM), turnover rate, 52-week high and low, shares, dividend yield",
        description:
          'Shares outstanding, free float and trailing earnings per share are seeded per code (MARKET_SEED) and ' +
          'change only through a bonus issue of the price history; marketCap = price × sharesOutstanding; ' +
          'peTtm = price ÷ epsTtm, null for a loss-maker; turnoverRate = volume ÷ floatShares (today so far); ' +
          'high52w / low52w are the highest high and lowest low of the unadjusted day bars of getDayK.do from ' +
          'windowStart (52 weeks back) on; dividendYield = the cash dividends that went ex in the last 12 months ÷ ' +
          'price. Money in the stock currency, rates as fractions. An index or futures code: NOT_A_STOCK.',
        querystring: fields({ code: stockCodeField }, ['code']),
        response: responses(
          object({
            code: str,
            currency: { type: 'string', enum: ['CNY', 'HKD', 'USD'] },
            price: num,
            sharesOutstanding: int,
            floatShares: int,
            marketCap: num,
            epsTtm: num,
            peTtm: { type: ['number', 'null'] },
            volume: num,
            turnoverRate: num,
            high52w: num,
            low52w: num,
            windowStart: int,
            dividendPerShareTtm: num,
            dividendYield: num,
            time: int,
          }),
        ),
      },
    },
    async (request) => ok(app.market.figures(stockOf(app, request.query.code))),
  );
}

/** A stock's own news, a page at a time, newest first. */
export function stockNewsRoute(app: FastifyInstance): void {
  app.get<{
    Querystring: CallIn<'GET /api/stock/getStockNews.do'> & { pageNum: number; pageSize: number };
  }>(
    '/api/stock/getStockNews.do',
    {
      schema: {
        tags: ['market'],
        summary: "A stock's own news, newest first, in the reader's language",
        description:
          "Written by the station from the stock's simulated market in all five content languages: a report on " +
          'each of its last five complete trading days (from the day bar), its latest trailing results and its ' +
          "ex-dividend dates of the last 12 months. Not stored and not in getNewsList.do (the station's " +
          'editorial news). One item with its Markdown: getStockNewsDetail.do. An index or futures code: NOT_A_STOCK.',
        querystring: fields(
          { code: stockCodeField, pageNum: pageNumField, pageSize: pageSizeField, lang: langField },
          ['code'],
        ),
        response: responses(pageOf(object(newsItem))),
      },
    },
    async (request) => {
      const q = request.query;
      const all = app.market.stockNews(stockOf(app, q.code), readerLang(app, request, q.lang));
      const start = (q.pageNum - 1) * q.pageSize;
      return ok({
        list: all.slice(start, start + q.pageSize).map(({ content: _content, ...item }) => item),
        total: all.length,
        pageNum: q.pageNum,
        pageSize: q.pageSize,
      });
    },
  );
}

/** One of a stock's news items with its Markdown. */
export function stockNewsDetailRoute(app: FastifyInstance): void {
  app.get<{ Querystring: CallIn<'GET /api/stock/getStockNewsDetail.do'> }>(
    '/api/stock/getStockNewsDetail.do',
    {
      schema: {
        tags: ['market'],
        summary: "One of a stock's own news items (an id of getStockNews.do) with its Markdown content",
        querystring: fields(
          {
            id: { type: 'string', minLength: 1, maxLength: 40, pattern: '^[A-Za-z0-9-]+$' },
            lang: langField,
          },
          ['id'],
        ),
        response: responses(object({ ...newsItem, content: { type: 'string', description: 'Markdown' } })),
      },
    },
    async (request) => {
      const q = request.query;
      return ok(app.market.stockNewsItem(q.id, readerLang(app, request, q.lang)));
    },
  );
}

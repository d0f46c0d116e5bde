/** Market routes: quote pages of one market (filtered or sorted), search across markets, and the top lists. */
import type { FastifyInstance } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import type { StockMarket } from '../../../src/shared/api/types';
import { QUOTE_SORTS, type QuoteSort } from '../market-service';
import { localizeNames } from '../localized-names';
import {
  ok,
  fields,
  pageNumField,
  pageOf,
  pageSizeField,
  ref,
  responses,
  stockMarketField,
  type BodyCache,
} from '../../platform';

/** Names, codes and pinyin: letters (any script), digits, spaces and . & - only. */
const keywordField = { type: 'string', maxLength: 32, pattern: '^[\\p{L}\\p{N} .&-]*$' } as const;

/** A page of one market's quotes, filtered by keyword and sorted; cached in `pages` for the clock second. */
export function quotePageRoute(app: FastifyInstance, pages: BodyCache): void {
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
    async (request, reply) => {
      const q = request.query;
      const second = Math.floor(market.now() / 1000);
      // A cached body skips the serialiser and so the names' hook: the page is localized here, per locale.
      const locale = app.i18n.resolve(request.headers['accept-language']);
      const key = `${locale}|${q.market}|${q.sort ?? ''}|${q.keyword ?? ''}|${q.pageNum}|${q.pageSize}|${second}`;
      return pages.send(request, reply, key, () =>
        localizeNames(
          ok(
            market.list(q.market, {
              keyword: q.keyword,
              sort: q.sort as QuoteSort | undefined,
              pageNum: q.pageNum,
              pageSize: q.pageSize,
            }),
          ),
          (code, name) => market.localName(code, name, locale),
        ),
      );
    },
  );
}

/** Search of every market by code, name or pinyin initials. */
export function searchRoute(app: FastifyInstance): void {
  const { market } = app;
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
}

/** A page of one market sorted by one field; shares the quote pages' cache (`pages`). */
export function sortedPageRoute(app: FastifyInstance, pages: BodyCache): void {
  const { market, config } = app;
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
      const locale = app.i18n.resolve(request.headers['accept-language']);
      const key = `${locale}|${q.market}|${sort}||${q.pageNum}|${q.pageSize}|${second}`;
      return pages.send(request, reply, key, () =>
        localizeNames(ok(market.list(q.market, { sort, pageNum: q.pageNum, pageSize: q.pageSize })), (c, n) =>
          market.localName(c, n, locale),
        ),
      );
    },
  );
}

/** The top stocks of one market by rise, fall or turnover. */
export function topRoute(app: FastifyInstance): void {
  const { market } = app;
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
}

/** Market routes: one stock's detail (quote, limits, lot, status, T+1), with its order book or by a prefixed code. */
import type { FastifyInstance } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import { AppError, ok, fields, ref, responses, SHARED_SCHEMAS, stockCodeField } from '../../platform';

const STOCK_DETAIL = SHARED_SCHEMAS.find((schema) => schema.$id === 'StockDetail') as unknown as {
  properties: Record<string, unknown>;
  required: string[];
};

/** One stock's detail with a simulated 5-level order book. */
export function singleStockRoute(app: FastifyInstance): void {
  const { market } = app;
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
}

/** One stock's detail by a bare code or one with its exchange prefix. */
export function stockByCodeRoute(app: FastifyInstance): void {
  const { market } = app;
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
}

/**
 * Fund products: the list and a fund's NAV history (public), and buying, selling, holdings and trade records
 * (behind a session).
 */
import type { FastifyInstance } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import {
  buyFund,
  fundDetail,
  fundHoldings,
  listFundTrades,
  listFunds,
  NAV_HISTORY_DEFAULT,
  NAV_HISTORY_MAX,
  sellFund,
} from '../funds';
import {
  ok,
  fields,
  pageNumField,
  pageOf,
  pageSizeField,
  postConsumes,
  requestIdField,
  responses,
  userSecurity,
} from '../../platform';
import {
  FUND_TYPES,
  fundCodeField,
  fundProduct,
  fundTrade,
  moneyField,
  num,
  object,
  str,
  type SessionUserId,
} from './fund-schemas';

/** The fund list and one fund with its NAV history. */
export function fundProductRoutes(app: FastifyInstance): void {
  const { station } = app;
  app.get<{ Querystring: CallIn<'GET /api/fund/list.do'> }>(
    '/api/fund/list.do',
    {
      schema: {
        tags: ['funds'],
        summary: "Fund products with the day's simulated NAV",
        querystring: fields({ type: { type: 'string', enum: FUND_TYPES } }),
        response: responses({ type: 'array', items: fundProduct }),
      },
    },
    async (request) => ok(listFunds(station, request.query.type)),
  );
  app.get<{ Querystring: { code: string; days: number } }>(
    '/api/fund/detail.do',
    {
      schema: {
        tags: ['funds'],
        summary: 'A fund product and its NAV history (one row per trading day, oldest first)',
        querystring: fields(
          {
            code: fundCodeField,
            days: { type: 'integer', minimum: 1, maximum: NAV_HISTORY_MAX, default: NAV_HISTORY_DEFAULT },
          },
          ['code'],
        ),
        response: responses(
          object({
            fund: fundProduct,
            history: {
              type: 'array',
              items: { type: 'array', items: num, minItems: 2, maxItems: 2 },
              description: '[time (the day at 00:00 UTC), nav]',
            },
          }),
        ),
      },
    },
    async (request) => ok(fundDetail(station, request.query.code, request.query.days)),
  );
}

/** Buying and redeeming funds, the holdings and the trade records. */
export function fundTradingRoutes(app: FastifyInstance, userId: SessionUserId): void {
  const { station } = app;
  const { settings } = station.config;
  app.post<{ Body: CallIn<'POST /user/fund/buy.do'> }>(
    '/user/fund/buy.do',
    {
      schema: {
        tags: ['funds'],
        summary:
          "Buy a fund for an amount from the main account at the day's NAV (the purchase fee comes out of it)",
        security: userSecurity,
        consumes: postConsumes,
        body: fields({ code: fundCodeField, amount: moneyField, requestId: requestIdField }, [
          'code',
          'amount',
          'requestId',
        ]),
        response: responses(fundTrade),
      },
    },
    async (request) => ok(await buyFund(station, userId(request), request.body)),
  );
  app.post<{ Body: CallIn<'POST /user/fund/sell.do'> }>(
    '/user/fund/sell.do',
    {
      schema: {
        tags: ['funds'],
        summary:
          "Redeem units (2 decimals) of a fund at the day's NAV into the main account, less the redemption fee",
        security: userSecurity,
        consumes: postConsumes,
        body: fields(
          {
            code: fundCodeField,
            units: { type: 'number', minimum: -1e12, maximum: 1e12 },
            requestId: requestIdField,
          },
          ['code', 'units', 'requestId'],
        ),
        response: responses(fundTrade),
      },
    },
    async (request) => ok(await sellFund(station, userId(request), request.body)),
  );
  app.get(
    '/user/fund/holdings.do',
    {
      schema: {
        tags: ['funds'],
        summary: "The user's fund holdings valued at the day's NAV",
        security: userSecurity,
        response: responses(
          object({
            holdings: {
              type: 'array',
              items: object({
                code: str,
                name: str,
                units: num,
                nav: num,
                marketValue: num,
                cost: num,
                pnl: num,
              }),
            },
            totalValue: num,
          }),
        ),
      },
    },
    async (request) => ok(await fundHoldings(station, userId(request))),
  );
  app.get<{ Querystring: { pageNum: number; pageSize: number } }>(
    '/user/fund/trades.do',
    {
      schema: {
        tags: ['funds'],
        summary: 'Fund purchases and redemptions, newest first',
        security: userSecurity,
        querystring: fields({
          pageNum: pageNumField,
          pageSize: { ...pageSizeField, default: settings.pageSizeDefault },
        }),
        response: responses(pageOf(fundTrade)),
      },
    },
    async (request) => ok(await listFundTrades(station, userId(request), request.query)),
  );
}

/**
 * Block trades and VIP picks (spec §7 "New shares and block trades"): the day's offers and
 * allocations are public market data under /api/stock/; buying and the user's records need a session, and
 * a VIP purchase the VIP permission (NO_PERMISSION otherwise). Block trades and VIP picks register as two
 * groups, each beside its answer schemas.
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import { checkLots } from '../../../src/shared/validation';
import { buyBlockTrade, listBlockTrades, listOffers } from '../block-trades';
import { buyVipPick, listVipPicks, listVipPurchases, vipPickByCode } from '../vip-picks';
import {
  ok,
  fields,
  lotsField,
  pageNumField,
  pageOf,
  pageSizeField,
  postConsumes,
  ref,
  requestIdField,
  responses,
  stockCodeField,
  userSecurity,
  type FieldRule,
} from '../../platform';
import { MARKETS } from '../../../src/shared/api/types';

const num = { type: 'number' } as const;
const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;
const marketEnum = { type: 'string', enum: [...MARKETS] } as const;

function object(properties: Record<string, unknown>) {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  } as const;
}

const keywordField = {
  type: 'string',
  maxLength: 32,
  pattern: '^[\\p{L}\\p{N} .&-]*$',
  description: 'code, name or pinyin initials',
} as const;

/** The quantity messages of spec §5 for a lots field that failed its schema. */
const lotsRule: FieldRule = (raw) =>
  checkLots(typeof raw === 'number' || typeof raw === 'string' ? raw : undefined, lotsField.maximum) ??
  (raw === undefined || typeof raw === 'number' || typeof raw === 'string' ? null : 'lotsNotWhole');

const offerSchema = object({
  code: str,
  name: str,
  market: marketEnum,
  currentPrice: num,
  price: { ...num, description: 'the current price less the discount, on the tick' },
  discount: { ...num, description: 'a fraction: 0.05 is 5% below the current price' },
  minLots: int,
  maxLots: int,
  lotSize: { ...int, description: 'shares per lot' },
  leverages: { type: 'array', items: int },
  opensAt: { ...int, description: 'epoch ms' },
  closesAt: { ...int, description: 'epoch ms' },
  status: { type: 'string', enum: ['upcoming', 'open', 'closed'] },
});

const blockTradeRecordSchema = object({
  id: int,
  code: str,
  name: str,
  market: marketEnum,
  lots: int,
  shares: int,
  price: { ...num, description: 'the offer price paid per share' },
  marketPrice: { ...num, description: 'the price when bought' },
  discount: num,
  leverage: int,
  amount: { ...num, description: 'price × shares' },
  fee: num,
  createdAt: int,
  position: ref('Position'),
});

const vipPickSchema = object({
  id: int,
  code: str,
  name: str,
  market: marketEnum,
  price: { ...num, description: 'the set price per share' },
  currentPrice: num,
  totalLots: int,
  soldLots: int,
  remainingLots: int,
  maxLotsPerUser: int,
  lotSize: { ...int, description: 'shares per lot' },
  opensAt: int,
  closesAt: int,
  status: { type: 'string', enum: ['upcoming', 'open', 'closed', 'soldOut'] },
});

const vipPurchaseSchema = object({
  id: int,
  pickId: int,
  code: str,
  name: str,
  lots: int,
  shares: int,
  price: num,
  amount: num,
  fee: num,
  createdAt: int,
  position: ref('Position'),
});

export const blockTradesVipPlugin: FastifyPluginAsync = async (app) => {
  // In the order the OpenAPI document has always listed them.
  blockTradeRoutes(app);
  vipPickRoutes(app);
};

/** The user's records, a page at a time (pageSize at the station's default). */
function pageQueryOf(app: FastifyInstance) {
  return fields(
    {
      pageNum: pageNumField,
      pageSize: { ...pageSizeField, default: app.station.config.settings.pageSizeDefault },
    },
    [],
  );
}

/** getDzList.do (public), buyStockDz.do and buyStockDzList.do (with a session). */
function blockTradeRoutes(app: FastifyInstance): void {
  const { station } = app;
  const pageQuery = pageQueryOf(app);

  app.get<{ Querystring: CallIn<'GET /api/stock/getDzList.do'> }>(
    '/api/stock/getDzList.do',
    {
      schema: {
        tags: ['block trades'],
        summary:
          "Today's block-trade offers (A-share and STAR): a discount to the current price, a minimum size and a time window",
        querystring: fields({ keyword: keywordField }, []),
        response: responses({ type: 'array', items: offerSchema }),
      },
    },
    async (request) => ok(listOffers(station, request.query.keyword)),
  );

  app.post<{ Body: CallIn<'POST /user/buyStockDz.do'> }>(
    '/user/buyStockDz.do',
    {
      onRequest: app.auth.requireUser,
      config: { fieldRules: { lots: lotsRule } },
      schema: {
        tags: ['block trades'],
        summary:
          'Buy lots of an open block-trade offer at its price: opens a long position, sellable from the next trading day (T+1)',
        security: userSecurity,
        consumes: postConsumes,
        body: fields(
          {
            code: stockCodeField,
            lots: { ...lotsField, description: "at least the offer's minLots, at most its maxLots" },
            leverage: {
              type: 'integer',
              minimum: 1,
              maximum: 100,
              description: "one of the offer's leverages",
            },
            requestId: requestIdField,
          },
          ['code', 'lots', 'requestId'],
        ),
        response: responses(blockTradeRecordSchema),
      },
    },
    async (request) => ok(await buyBlockTrade(station, app.auth.session(request).userId, request.body)),
  );

  app.get<{ Querystring: { pageNum: number; pageSize: number } }>(
    '/user/buyStockDzList.do',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['block trades'],
        summary: "The user's block-trade purchases, newest first, each with its position now",
        security: userSecurity,
        querystring: pageQuery,
        response: responses(pageOf(blockTradeRecordSchema)),
      },
    },
    async (request) => ok(await listBlockTrades(station, app.auth.session(request).userId, request.query)),
  );
}

/** getVipList.do and getVipByCode.do (public), buyVipQc.do and vipQcList.do (with a session). */
function vipPickRoutes(app: FastifyInstance): void {
  const { station } = app;
  const pageQuery = pageQueryOf(app);

  app.get<{ Querystring: CallIn<'GET /api/stock/getVipList.do'> }>(
    '/api/stock/getVipList.do',
    {
      schema: {
        tags: ['VIP picks'],
        summary: "Today's VIP allocations: lots of a stock at a set price, first come first served",
        querystring: fields({ keyword: keywordField }, []),
        response: responses({ type: 'array', items: vipPickSchema }),
      },
    },
    async (request) => ok(await listVipPicks(station, request.query.keyword)),
  );

  app.get<{ Querystring: CallIn<'GET /api/stock/getVipByCode.do'> }>(
    '/api/stock/getVipByCode.do',
    {
      schema: {
        tags: ['VIP picks'],
        summary: "Today's VIP allocation of a code, with the lots left",
        querystring: fields({ code: stockCodeField }, ['code']),
        response: responses(vipPickSchema),
      },
    },
    async (request) => ok(await vipPickByCode(station, request.query.code)),
  );

  app.post<{ Body: CallIn<'POST /user/buyVipQc.do'> }>(
    '/user/buyVipQc.do',
    {
      onRequest: app.auth.requireUser,
      config: { fieldRules: { lots: lotsRule } },
      schema: {
        tags: ['VIP picks'],
        summary:
          'Take lots of a VIP allocation at its set price (paid in full, T+1); needs the VIP permission, ' +
          'else NO_PERMISSION; SOLD_OUT when nothing is left',
        security: userSecurity,
        consumes: postConsumes,
        body: fields(
          {
            code: stockCodeField,
            lots: { ...lotsField, description: "at most the allocation's maxLotsPerUser over all purchases" },
            requestId: requestIdField,
          },
          ['code', 'lots', 'requestId'],
        ),
        response: responses(vipPurchaseSchema),
      },
    },
    async (request) => ok(await buyVipPick(station, app.auth.session(request).userId, request.body)),
  );

  app.get<{ Querystring: { pageNum: number; pageSize: number } }>(
    '/user/vipQcList.do',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['VIP picks'],
        summary: "The user's VIP purchases, newest first, each with its position now",
        security: userSecurity,
        querystring: pageQuery,
        response: responses(pageOf(vipPurchaseSchema)),
      },
    },
    async (request) => ok(await listVipPurchases(station, app.auth.session(request).userId, request.query)),
  );
}

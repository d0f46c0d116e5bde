/** Trading calls: market buy, sell (close all or part), the position list. All need a session. */
import type { FastifyPluginAsync } from 'fastify';
import type { CallIn } from '../../src/shared/api/calls';
import type { StockMarket } from '../../src/shared/api/types';
import { checkLots } from '../../src/shared/validation';
import { buy, listPositions, sell } from '../domain/trading';
import type { FieldRule } from './fastify-types';
import { ok } from './envelope';
import {
  fields,
  postConsumes,
  lotsField,
  pageNumField,
  pageOf,
  pageSizeField,
  ref,
  requestIdField,
  responses,
  stockCodeField,
  stockMarketField,
  userSecurity,
} from './schemas';

/** The quantity messages of spec §5 for a lots field that failed its schema. */
const lotsRule: FieldRule = (raw) =>
  checkLots(typeof raw === 'number' || typeof raw === 'string' ? raw : undefined, lotsField.maximum) ??
  (raw === undefined || typeof raw === 'number' || typeof raw === 'string' ? null : 'lotsNotWhole');

const priceField = { type: 'number', exclusiveMinimum: 0, maximum: 10_000_000 } as const;

export const tradePlugin: FastifyPluginAsync = async (app) => {
  const { station } = app;
  app.addHook('onRequest', app.auth.requireUser);

  app.post<{ Body: CallIn<'POST /user/buy.do'> }>(
    '/user/buy.do',
    {
      config: { fieldRules: { lots: lotsRule } },
      schema: {
        tags: ['trade'],
        summary: 'Market buy: opens a long position with margin = value ÷ leverage, plus fees',
        security: userSecurity,
        consumes: postConsumes,
        body: fields(
          {
            code: stockCodeField,
            lots: {
              ...lotsField,
              description: 'A/STAR: 1 lot = 100 shares, 1-100; HK: board lots; US: shares',
            },
            leverage: {
              type: 'integer',
              minimum: 1,
              maximum: 100,
              description: 'A: 1,2,3,5,10; HK/US: 1,2,5',
            },
            direction: { type: 'string', enum: ['long', 'short'], description: 'stocks: long only' },
            stopProfit: priceField,
            stopLoss: priceField,
            requestId: requestIdField,
          },
          ['code', 'lots', 'leverage', 'requestId'],
        ),
        response: responses(ref('Position')),
      },
    },
    async (request) => ok(await buy(station, app.auth.session(request).userId, request.body)),
  );

  app.post<{ Body: CallIn<'POST /user/sell.do'> }>(
    '/user/sell.do',
    {
      config: { fieldRules: { lots: (raw) => (raw === undefined ? null : lotsRule(raw)) } },
      schema: {
        tags: ['trade'],
        summary: 'Sell (close) a position, or some lots of it; answers the closed part, or what remains open',
        security: userSecurity,
        consumes: postConsumes,
        body: fields(
          {
            positionId: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
            lots: { ...lotsField, description: 'absent: the whole position' },
            requestId: requestIdField,
          },
          ['positionId', 'requestId'],
        ),
        response: responses(ref('Position')),
      },
    },
    async (request) => ok(await sell(station, app.auth.session(request).userId, request.body)),
  );

  app.get<{
    Querystring: { state: 'open' | 'closed'; market?: StockMarket; pageNum: number; pageSize: number };
  }>(
    '/user/position/list.do',
    {
      schema: {
        tags: ['trade'],
        summary: 'Open or closed positions, newest first, valued at the current price',
        security: userSecurity,
        querystring: fields(
          {
            state: { type: 'string', enum: ['open', 'closed'], default: 'open' },
            market: stockMarketField,
            pageNum: pageNumField,
            pageSize: { ...pageSizeField, default: station.config.settings.pageSizeDefault },
          },
          [],
        ),
        response: responses(pageOf(ref('Position'))),
      },
    },
    async (request) => ok(await listPositions(station, app.auth.session(request).userId, request.query)),
  );
};

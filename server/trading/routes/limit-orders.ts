/**
 * Limit orders (addOrder.do, order/cancel.do, order/list.do). The engine that fills them is one of the
 * station's jobs (server/jobs).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import { MARKETS, type OrderStatus } from '../../../src/shared/api/types';
import { checkLots } from '../../../src/shared/validation';
import { addOrder, cancelOrder } from '../limit-orders';
import { listOrders } from '../order-list';
import { competitionIdField } from './trade-fields';
import {
  ok,
  fields,
  lotsField,
  pageNumField,
  pageOf,
  pageSizeField,
  postConsumes,
  requestIdField,
  responses,
  stockCodeField,
  userSecurity,
  type FieldRule,
} from '../../platform';

const lotsRule: FieldRule = (raw) =>
  checkLots(typeof raw === 'number' || typeof raw === 'string' ? raw : undefined, lotsField.maximum) ??
  (raw === undefined || typeof raw === 'number' || typeof raw === 'string' ? null : 'lotsNotWhole');

const priceField = { type: 'number', exclusiveMinimum: 0, maximum: 10_000_000 } as const;
const nullableNumber = { type: ['number', 'null'] } as const;

/** The `order` shape of API.md (plus market, direction, stops and frozen funds). */
const orderSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    code: { type: 'string' },
    name: { type: 'string' },
    lots: { type: 'integer' },
    leverage: { type: 'integer' },
    triggerPrice: { type: 'number' },
    status: { type: 'string', enum: ['pending', 'filled', 'cancelled', 'rejected'] },
    rejectReason: {
      type: ['string', 'null'],
      description: 'INSUFFICIENT_FUNDS when funds no longer sufficed; EXPIRED when a day order ran out',
    },
    positionId: { type: ['integer', 'null'], description: 'the position a fill opened' },
    createdAt: { type: 'integer' },
    updatedAt: { type: 'integer' },
    market: { type: 'string', enum: [...MARKETS] },
    direction: { type: 'string', enum: ['long', 'short'] },
    stopProfit: nullableNumber,
    stopLoss: nullableNumber,
    frozen: {
      type: 'number',
      description: 'funds held while pending: margin + buy fees at the trigger price',
    },
    fillPrice: {
      type: ['number', 'null'],
      description: 'the price it filled at: a buy at or below the trigger, a sale at or above it',
    },
    expiresAt: {
      type: ['integer', 'null'],
      description: 'a day order: unfilled, it is cancelled (rejectReason EXPIRED) at this close',
    },
  },
  required: [
    'id',
    'code',
    'name',
    'lots',
    'leverage',
    'triggerPrice',
    'status',
    'rejectReason',
    'positionId',
    'createdAt',
    'updatedAt',
    'market',
    'direction',
    'stopProfit',
    'stopLoss',
    'frozen',
    'fillPrice',
    'expiresAt',
  ],
  additionalProperties: false,
} as const;

export const ordersPlugin: FastifyPluginAsync = async (app) => {
  const { station } = app;
  app.addHook('onRequest', app.auth.requireUser);

  app.post<{ Body: CallIn<'POST /user/addOrder.do'> }>(
    '/user/addOrder.do',
    {
      config: { fieldRules: { lots: lotsRule } },
      schema: {
        tags: ['trade'],
        summary:
          'Limit order: fills as a market order when the price reaches the trigger within a session ' +
          '(long: at or below it); margin + fees at the trigger are frozen while pending. It may be placed ' +
          'while the market is closed and waits; it stays until filled or revoked.',
        security: userSecurity,
        consumes: postConsumes,
        body: fields(
          {
            code: stockCodeField,
            lots: { ...lotsField, description: 'as buy.do' },
            leverage: { type: 'integer', minimum: 1, maximum: 100, description: 'as buy.do' },
            triggerPrice: {
              ...priceField,
              description: "on the instrument's tick, within the day's price limits",
            },
            direction: {
              type: 'string',
              enum: ['long', 'short'],
              description: 'stocks: long only unless shorting stocks is on',
            },
            stopProfit: { ...priceField, description: 'above the trigger' },
            stopLoss: { ...priceField, description: 'below the trigger' },
            competitionId: competitionIdField,
            requestId: requestIdField,
          },
          ['code', 'lots', 'leverage', 'triggerPrice', 'requestId'],
        ),
        response: responses(orderSchema),
      },
    },
    async (request) => ok(await addOrder(station, app.auth.session(request).userId, request.body)),
  );

  app.post<{ Body: CallIn<'POST /user/order/cancel.do'> }>(
    '/user/order/cancel.do',
    {
      schema: {
        tags: ['trade'],
        summary: 'Revoke a pending limit order; its frozen funds are released (ALREADY_DONE if not pending)',
        security: userSecurity,
        consumes: postConsumes,
        body: fields(
          {
            orderId: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
            requestId: requestIdField,
          },
          ['orderId', 'requestId'],
        ),
        response: responses(orderSchema),
      },
    },
    async (request) => ok(await cancelOrder(station, app.auth.session(request).userId, request.body)),
  );

  app.get<{
    Querystring: { status?: OrderStatus; competitionId?: number; pageNum: number; pageSize: number };
  }>(
    '/user/order/list.do',
    {
      schema: {
        tags: ['trade'],
        summary: "The user's limit orders, newest first",
        security: userSecurity,
        querystring: fields(
          {
            status: { type: 'string', enum: ['pending', 'filled', 'cancelled', 'rejected'] },
            competitionId: competitionIdField,
            pageNum: pageNumField,
            pageSize: { ...pageSizeField, default: station.config.settings.pageSizeDefault },
          },
          [],
        ),
        response: responses(pageOf(orderSchema)),
      },
    },
    async (request) => ok(await listOrders(station, app.auth.session(request).userId, request.query)),
  );
};

/**
 * The wallet's calls that move money between accounts (spec §7 "Cash" and "Exchange"): transfers between
 * the CNY accounts and the currency flash exchange.
 */
import type { FastifyInstance } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import { exchange, listExchanges, spreadRate } from '../flash-exchange';
import { transfer } from '../transfer';
import {
  ok,
  fields,
  pageOf,
  postConsumes,
  ref,
  requestIdField,
  responses,
  userSecurity,
} from '../../platform';
import {
  amountField,
  amountRule,
  int,
  nullable,
  num,
  object,
  pageQuery,
  str,
  userIdOf,
} from './wallet-fields';

const currencyField = { type: 'string', enum: ['CNY', 'HKD', 'USD'] } as const;
const transferAccountField = {
  type: 'string',
  enum: ['main', 'index', 'newstock'],
  description: 'the CNY accounts',
} as const;

const exchangeSchema = object({
  id: int,
  source: str,
  target: str,
  sourceAmount: num,
  targetAmount: num,
  midRate: { ...num, description: 'target units for one source unit, before the spread' },
  spreadRate: num,
  createdAt: int,
});

const spreadSchema = object({
  spreadRate: num,
  source: nullable('string'),
  target: nullable('string'),
  midRate: nullable('number'),
  rate: { ...nullable('number'), description: 'midRate × (1 − spreadRate)' },
});

/** transAmt.do: cash between the main, index and newstock accounts. */
export function transferRoute(app: FastifyInstance): void {
  const { station } = app;
  app.post<{ Body: CallIn<'POST /user/transAmt.do'> }>(
    '/user/transAmt.do',
    {
      schema: {
        tags: ['cash'],
        summary: 'Move available cash between the main, index and newstock accounts (instant)',
        security: userSecurity,
        consumes: postConsumes,
        body: fields(
          {
            amount: amountField,
            from: transferAccountField,
            to: transferAccountField,
            requestId: requestIdField,
          },
          ['amount', 'from', 'to', 'requestId'],
        ),
        response: responses(object({ from: ref('Account'), to: ref('Account') })),
      },
      config: { fieldRules: { amount: amountRule } },
    },
    async (request) => ok(await transfer(station, userIdOf(app, request), request.body)),
  );
}

/** exchange.do, exchangeLog.do and findSpreadRateOne.do. */
export function exchangeRoutes(app: FastifyInstance): void {
  const { station } = app;
  app.post<{ Body: CallIn<'POST /api/user/exchange.do'> }>(
    '/api/user/exchange.do',
    {
      schema: {
        tags: ['cash'],
        summary:
          "Currency flash exchange between CNY (main), HKD (hk) and USD (us) at today's rate less the spread",
        security: userSecurity,
        consumes: postConsumes,
        body: fields(
          {
            amount: { ...amountField, description: 'in the source currency, major units' },
            source: currencyField,
            target: currencyField,
            requestId: requestIdField,
          },
          ['amount', 'source', 'target', 'requestId'],
        ),
        response: responses(exchangeSchema),
      },
      config: { fieldRules: { amount: amountRule } },
    },
    async (request) => ok(await exchange(station, userIdOf(app, request), request.body)),
  );

  app.get<{ Querystring: { pageNum: number; pageSize: number } }>(
    '/api/user/exchangeLog.do',
    {
      schema: {
        tags: ['cash'],
        summary: "The user's currency exchanges, newest first",
        security: userSecurity,
        querystring: pageQuery(app, {}),
        response: responses(pageOf(exchangeSchema)),
      },
    },
    async (request) => ok(await listExchanges(station, userIdOf(app, request), request.query)),
  );

  app.get<{ Querystring: CallIn<'GET /api/user/findSpreadRateOne.do'> }>(
    '/api/user/findSpreadRateOne.do',
    {
      schema: {
        tags: ['cash'],
        summary: 'The exchange spread; with source and target, the mid rate and the rate after the spread',
        security: userSecurity,
        querystring: fields({ source: currencyField, target: currencyField }),
        response: responses(spreadSchema),
      },
    },
    async (request) => ok(spreadRate(station, request.query)),
  );
}

/**
 * The wallet's calls (spec §7 "Cash" and "Exchange", issue 10): deposits, withdrawals, transfers between
 * the CNY accounts and the currency flash exchange. All need a session; money is in major units; the
 * pay channels are simulated (play money only).
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import type { RechargeStatus, WithdrawalStatus } from '../../../src/shared/api/types';
import { checkMoneyAmount } from '../../../src/shared/validation';
import { listDeposits, requestDeposit } from '../deposit';
import { exchange, listExchanges, spreadRate } from '../flash-exchange';
import { transfer } from '../transfer';
import type { ReasonText } from '../wallet';
import {
  cancelWithdrawal,
  listWithdrawals,
  MAX_REASON_LENGTH,
  requestWithdrawal,
  withdrawInfo,
} from '../withdrawal';
import type { FieldRule } from '../../platform/http/fastify-types';
import { ok } from '../../platform/http/envelope';
import { localizeReason } from '../../identity/routes/kyc';
import {
  fields,
  pageNumField,
  pageOf,
  pageSizeField,
  postConsumes,
  ref,
  requestIdField,
  responses,
  userSecurity,
} from '../../platform/http/schemas';

const amountField = {
  type: 'number',
  exclusiveMinimum: 0,
  maximum: 1_000_000_000_000,
  description: 'major units, at most 2 decimals',
} as const;
/** spec §5: "the amount must be correct" for whatever failed the schema. */
const amountRule: FieldRule = (raw) =>
  checkMoneyAmount(typeof raw === 'number' || typeof raw === 'string' ? raw : undefined) ??
  (raw === undefined || typeof raw === 'number' || typeof raw === 'string' ? null : 'amountInvalid');
const idField = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
const currencyField = { type: 'string', enum: ['CNY', 'HKD', 'USD'] } as const;
const transferAccountField = {
  type: 'string',
  enum: ['main', 'index', 'newstock'],
  description: 'the CNY accounts',
} as const;
const int = { type: 'integer' } as const;
const num = { type: 'number' } as const;
const str = { type: 'string' } as const;
const nullable = (type: 'integer' | 'number' | 'string') => ({ type: [type, 'null'] }) as const;

function object(properties: Record<string, unknown>) {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  } as const;
}

const rechargeStatuses = ['pending', 'success', 'failed', 'cancelled'] as const;
const withdrawalStatuses = ['pending', 'paid', 'rejected', 'cancelled'] as const;

const rechargeSchema = object({
  id: int,
  orderNo: str,
  amount: num,
  channel: str,
  channelId: int,
  status: { type: 'string', enum: rechargeStatuses },
  failReason: nullable('string'),
  createdAt: int,
  decidedAt: nullable('integer'),
});

const withdrawalSchema = object({
  id: int,
  orderNo: str,
  amount: { ...num, description: 'what left the balance, the fee included' },
  fee: num,
  payeeName: str,
  bankName: str,
  cardNoMasked: str,
  status: { type: 'string', enum: withdrawalStatuses },
  cancelReason: nullable('string'),
  rejectReason: nullable('string'),
  createdAt: int,
  decidedAt: nullable('integer'),
});

const withdrawInfoSchema = object({
  withdrawable: { ...num, description: 'available less today’s sale proceeds (T+1)' },
  available: num,
  unsettled: { ...num, description: 'today’s sale proceeds: withdrawable from the next trading day' },
  feeRate: num,
  minAmount: num,
  maxAmount: num,
  hours: { ...str, description: 'HH:MM-HH:MM on trading days (Asia/Shanghai)' },
  open: { type: 'boolean' },
});

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

export const walletPlugin: FastifyPluginAsync = async (app) => {
  const { station } = app;
  app.addHook('onRequest', app.auth.requireUser);
  const userIdOf = (request: FastifyRequest) => app.auth.session(request).userId;
  const reasonsFor = (request: FastifyRequest): ReasonText => {
    const messages = app.i18n.messages(request.headers['accept-language']);
    return (reason) => localizeReason(messages, reason);
  };
  const pageQuery = (extra: Record<string, unknown>) =>
    fields(
      {
        ...extra,
        pageNum: pageNumField,
        pageSize: { ...pageSizeField, default: station.config.settings.pageSizeDefault },
      },
      [],
    );

  app.post<{ Body: CallIn<'POST /user/recharge/inMoney.do'> }>(
    '/user/recharge/inMoney.do',
    {
      schema: {
        tags: ['cash'],
        summary:
          'Deposit through a simulated pay channel of getPayInfo.do: pending until the channel answers (play money)',
        security: userSecurity,
        consumes: postConsumes,
        body: fields({ amount: amountField, channelId: idField, requestId: requestIdField }, [
          'amount',
          'channelId',
          'requestId',
        ]),
        response: responses(rechargeSchema),
      },
      config: { fieldRules: { amount: amountRule } },
    },
    async (request) => ok(await requestDeposit(station, userIdOf(request), request.body)),
  );

  app.get<{ Querystring: { status?: RechargeStatus; pageNum: number; pageSize: number } }>(
    '/user/recharge/list.do',
    {
      schema: {
        tags: ['cash'],
        summary: "The user's deposits, newest first",
        security: userSecurity,
        querystring: pageQuery({ status: { type: 'string', enum: rechargeStatuses } }),
        response: responses(pageOf(rechargeSchema)),
      },
    },
    async (request) => ok(await listDeposits(station, userIdOf(request), request.query, reasonsFor(request))),
  );

  app.get(
    '/user/withdraw/info.do',
    {
      schema: {
        tags: ['cash'],
        summary: 'What may be withdrawn now, with the limits, fee rate and hours',
        security: userSecurity,
        querystring: fields({}),
        response: responses(withdrawInfoSchema),
      },
    },
    async (request) => ok(await withdrawInfo(station, userIdOf(request))),
  );

  app.post<{ Body: CallIn<'POST /user/withdraw/outMoney.do'> }>(
    '/user/withdraw/outMoney.do',
    {
      schema: {
        tags: ['cash'],
        summary:
          'Withdraw to the bound bank card: KYC, bank card and withdrawal password; the amount (fee included) is frozen at once',
        security: userSecurity,
        consumes: postConsumes,
        body: fields(
          {
            amount: amountField,
            withdrawPassword: {
              type: 'string',
              maxLength: 32,
              description: 'the 6-digit withdrawal password',
            },
            requestId: requestIdField,
          },
          ['amount', 'withdrawPassword', 'requestId'],
        ),
        response: responses(withdrawalSchema),
      },
      config: { fieldRules: { amount: amountRule } },
    },
    async (request) => ok(await requestWithdrawal(station, userIdOf(request), request.body)),
  );

  app.post<{ Body: CallIn<'POST /user/withdraw/cancel.do'> }>(
    '/user/withdraw/cancel.do',
    {
      schema: {
        tags: ['cash'],
        summary: 'Cancel a pending withdrawal with a reason; the amount comes back at once',
        security: userSecurity,
        consumes: postConsumes,
        body: fields({ id: idField, reason: { type: 'string', maxLength: MAX_REASON_LENGTH * 4 } }, [
          'id',
          'reason',
        ]),
        response: responses(withdrawalSchema),
      },
    },
    async (request) =>
      ok(await cancelWithdrawal(station, userIdOf(request), request.body, reasonsFor(request))),
  );

  app.get<{ Querystring: { status?: WithdrawalStatus; pageNum: number; pageSize: number } }>(
    '/user/withdraw/list.do',
    {
      schema: {
        tags: ['cash'],
        summary: "The user's withdrawals, newest first",
        security: userSecurity,
        querystring: pageQuery({ status: { type: 'string', enum: withdrawalStatuses } }),
        response: responses(pageOf(withdrawalSchema)),
      },
    },
    async (request) =>
      ok(await listWithdrawals(station, userIdOf(request), request.query, reasonsFor(request))),
  );

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
    async (request) => ok(await transfer(station, userIdOf(request), request.body)),
  );

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
    async (request) => ok(await exchange(station, userIdOf(request), request.body)),
  );

  app.get<{ Querystring: { pageNum: number; pageSize: number } }>(
    '/api/user/exchangeLog.do',
    {
      schema: {
        tags: ['cash'],
        summary: "The user's currency exchanges, newest first",
        security: userSecurity,
        querystring: pageQuery({}),
        response: responses(pageOf(exchangeSchema)),
      },
    },
    async (request) => ok(await listExchanges(station, userIdOf(request), request.query)),
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
};

/** The wallet's withdrawal calls (spec §7 "Cash"): what may be withdrawn, withdraw, cancel, and the list. */
import type { FastifyInstance } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import type { WithdrawalStatus } from '../../../src/shared/api/types';
import {
  cancelWithdrawal,
  listWithdrawals,
  MAX_REASON_LENGTH,
  requestWithdrawal,
  withdrawInfo,
} from '../withdrawal';
import { ok, fields, pageOf, postConsumes, requestIdField, responses, userSecurity } from '../../platform';
import {
  amountField,
  amountRule,
  idField,
  int,
  nullable,
  num,
  object,
  pageQuery,
  reasonsFor,
  str,
  userIdOf,
} from './wallet-fields';

const withdrawalStatuses = ['pending', 'paid', 'rejected', 'cancelled'] as const;

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

/** withdraw/info.do, withdraw/outMoney.do, withdraw/cancel.do and withdraw/list.do. */
export function withdrawalRoutes(app: FastifyInstance): void {
  const { station } = app;
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
    async (request) => ok(await withdrawInfo(station, userIdOf(app, request))),
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
    async (request) => ok(await requestWithdrawal(station, userIdOf(app, request), request.body)),
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
      ok(await cancelWithdrawal(station, userIdOf(app, request), request.body, reasonsFor(app, request))),
  );

  app.get<{ Querystring: { status?: WithdrawalStatus; pageNum: number; pageSize: number } }>(
    '/user/withdraw/list.do',
    {
      schema: {
        tags: ['cash'],
        summary: "The user's withdrawals, newest first",
        security: userSecurity,
        querystring: pageQuery(app, { status: { type: 'string', enum: withdrawalStatuses } }),
        response: responses(pageOf(withdrawalSchema)),
      },
    },
    async (request) =>
      ok(await listWithdrawals(station, userIdOf(app, request), request.query, reasonsFor(app, request))),
  );
}

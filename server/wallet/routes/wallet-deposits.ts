/** The wallet's deposit calls (spec §7 "Cash"): a deposit through a simulated pay channel, and the list. */
import type { FastifyInstance } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import type { RechargeStatus } from '../../../src/shared/api/types';
import { listDeposits, requestDeposit } from '../deposit';
import { rechargeIn } from '../wallet';
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

const rechargeStatuses = ['pending', 'success', 'failed', 'cancelled'] as const;

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

/** recharge/inMoney.do and recharge/list.do. */
export function depositRoutes(app: FastifyInstance): void {
  const { station } = app;
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
    async (request) => {
      const recharge = await requestDeposit(station, userIdOf(app, request), request.body);
      return ok(rechargeIn(recharge, app.i18n.messages(request.headers['accept-language'])));
    },
  );

  app.get<{ Querystring: { status?: RechargeStatus; pageNum: number; pageSize: number } }>(
    '/user/recharge/list.do',
    {
      schema: {
        tags: ['cash'],
        summary: "The user's deposits, newest first",
        security: userSecurity,
        querystring: pageQuery(app, { status: { type: 'string', enum: rechargeStatuses } }),
        response: responses(pageOf(rechargeSchema)),
      },
    },
    async (request) => {
      const page = await listDeposits(
        station,
        userIdOf(app, request),
        request.query,
        reasonsFor(app, request),
      );
      const messages = app.i18n.messages(request.headers['accept-language']);
      return ok({ ...page, list: page.list.map((r) => rechargeIn(r, messages)) });
    },
  );
}

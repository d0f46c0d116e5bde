/** The fund flow (ledger entries) of the logged-in user. */
import type { FastifyPluginAsync } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import type { LedgerEntryType } from '../../../src/shared/api/types';
import { listLedger } from '../fund-flow';
import {
  ok,
  accountTypeField,
  fields,
  pageNumField,
  pageOf,
  pageSizeField,
  ref,
  responses,
  userSecurity,
} from '../../platform';

/** Every ledger entry type (LedgerEntryType), for the fund flow's type filter. */
const LEDGER_ENTRY_TYPES = [
  'opening_balance',
  'buy',
  'buy_fee',
  'sell',
  'sell_fee',
  'stamp_duty',
  'deferred_fee',
  'deposit',
  'withdraw',
  'withdraw_fee',
  'withdraw_refund',
  'transfer_in',
  'transfer_out',
  'exchange_in',
  'exchange_out',
  'reset',
  'top_up',
  'margin_release',
] as const satisfies readonly LedgerEntryType[];

export const cashPlugin: FastifyPluginAsync = async (app) => {
  const { station } = app;
  app.addHook('onRequest', app.auth.requireUser);

  app.get<{ Querystring: CallIn<'GET /user/cash/list.do'> & { pageNum: number; pageSize: number } }>(
    '/user/cash/list.do',
    {
      schema: {
        tags: ['cash'],
        summary: 'Ledger entries, newest first, each with the balance after it',
        security: userSecurity,
        querystring: fields(
          {
            account: accountTypeField,
            type: { type: 'string', enum: LEDGER_ENTRY_TYPES },
            pageNum: pageNumField,
            pageSize: { ...pageSizeField, default: station.config.settings.pageSizeDefault },
          },
          [],
        ),
        response: responses(pageOf(ref('LedgerEntry'))),
      },
    },
    async (request) => {
      const messages = app.i18n.messages(request.headers['accept-language']);
      return ok(await listLedger(station, messages, app.auth.session(request).userId, request.query));
    },
  );
};

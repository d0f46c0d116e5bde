/** Bank calls (spec §7 "Bank"): bind one card, change it when the back office allows, read it masked. */
import type { FastifyPluginAsync } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import { checkBankCard } from '../../../src/shared/validation';
import { addBankCard, bankCardOf, updateBankCard } from '../bank-card';
import { ok, fields, postConsumes, responses, userSecurity, type FieldRule } from '../../platform';

const bankCardView = {
  type: 'object',
  properties: {
    bankName: { type: 'string' },
    branch: { type: 'string' },
    cardNoMasked: { type: 'string', description: '6222 **** **** 1234' },
    holder: { type: 'string', description: 'the KYC name' },
    createdAt: { type: 'integer' },
  },
  required: ['bankName', 'branch', 'cardNoMasked', 'holder', 'createdAt'],
  additionalProperties: false,
} as const;

const cardBody = fields(
  {
    bankName: { type: 'string', maxLength: 64 },
    branch: { type: 'string', maxLength: 64 },
    cardNo: { type: 'string', maxLength: 40, description: '1-9 then 14 to 18 digits' },
  },
  ['bankName', 'branch', 'cardNo'],
);
const cardNoRule: FieldRule = (raw) =>
  checkBankCard(typeof raw === 'string' ? raw : undefined) ??
  (typeof raw === 'string' ? null : 'bankCardInvalid');

export const bankPlugin: FastifyPluginAsync = async (app) => {
  const station = app.station;

  app.post<{ Body: CallIn<'POST /user/bank/add.do'> }>(
    '/user/bank/add.do',
    {
      onRequest: app.auth.requireUser,
      config: { fieldRules: { cardNo: cardNoRule } },
      schema: {
        tags: ['bank'],
        summary: 'Bind the one bank card (needs KYC passed; the holder is the KYC name)',
        security: userSecurity,
        consumes: postConsumes,
        body: cardBody,
        response: responses(bankCardView),
      },
    },
    async (request) => ok(await addBankCard(station, app.auth.session(request).userId, request.body)),
  );

  app.post<{ Body: CallIn<'POST /user/bank/update.do'> }>(
    '/user/bank/update.do',
    {
      onRequest: app.auth.requireUser,
      config: { fieldRules: { cardNo: cardNoRule } },
      schema: {
        tags: ['bank'],
        summary:
          'Change the bank card: refused ("contact customer service") unless the back office allowed it',
        security: userSecurity,
        consumes: postConsumes,
        body: cardBody,
        response: responses(bankCardView),
      },
    },
    async (request) => ok(await updateBankCard(station, app.auth.session(request).userId, request.body)),
  );

  app.get(
    '/user/bank/getBankInfo.do',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['bank'],
        summary: 'The bound bank card, masked (null when none)',
        security: userSecurity,
        querystring: fields({}),
        response: responses({ anyOf: [bankCardView, { type: 'null' }] }),
      },
    },
    async (request) => ok(await bankCardOf(station, app.auth.session(request).userId)),
  );
};

/**
 * The price-alert calls: add, delete, re-arm and list a user's alerts (server/trading/alerts.ts). All need a
 * session; a fired alert reaches its user as a message in the message centre, and so on the message stream.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import { PRICE_ALERT_KINDS } from '../../../src/shared/api/alerts';
import {
  fields,
  ok,
  postConsumes,
  requestIdField,
  responses,
  stockCodeField,
  userSecurity,
} from '../../platform';
import { addAlert, deleteAlert, listAlerts, rearmAlert } from '../alerts';

const tags = ['alerts'];
const idField = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;

const alertSchema = {
  type: 'object',
  required: [
    'id',
    'code',
    'name',
    'market',
    'kind',
    'value',
    'createdAt',
    'armedAt',
    'firedAt',
    'firedPrice',
  ],
  properties: {
    id: { type: 'integer' },
    code: { type: 'string' },
    name: { type: 'string' },
    market: { type: 'string' },
    kind: { type: 'string', enum: [...PRICE_ALERT_KINDS] },
    value: { type: 'number' },
    createdAt: { type: 'integer' },
    armedAt: { type: 'integer', description: 'watched from the first minute at or after this instant' },
    firedAt: { type: ['integer', 'null'], description: 'null while armed' },
    firedPrice: { type: ['number', 'null'] },
  },
} as const;

export const alertsPlugin: FastifyPluginAsync = async (app) => {
  const { station } = app;
  app.addHook('onRequest', app.auth.requireUser);

  app.get<{ Querystring: CallIn<'GET /user/alert/list.do'> }>(
    '/user/alert/list.do',
    {
      schema: {
        tags,
        summary: "The user's price alerts, armed and fired, the newest first (of one code when given)",
        security: userSecurity,
        querystring: fields({ code: stockCodeField }, []),
        response: responses({ type: 'array', items: alertSchema }),
      },
    },
    async (request) => ok(await listAlerts(station, app.auth.session(request).userId, request.query.code)),
  );

  app.post<{ Body: CallIn<'POST /user/alert/add.do'> }>(
    '/user/alert/add.do',
    {
      schema: {
        tags,
        summary:
          'Set a price alert on a stock, index or future: price above/below a price, or change today ' +
          'above/below a fraction of the previous close; fires once at the first minute it holds. ' +
          'VALIDATION (alertAlreadyMet) when it holds now; ABOVE_MAXIMUM beyond the per-user cap',
        security: userSecurity,
        consumes: postConsumes,
        body: fields(
          {
            code: stockCodeField,
            kind: { type: 'string', enum: [...PRICE_ALERT_KINDS] },
            value: {
              type: 'number',
              minimum: -1_000_000_000,
              maximum: 1_000_000_000,
              description: 'a price in the instrument currency, or a change as a fraction (0.05 is 5 %)',
            },
            requestId: requestIdField,
          },
          ['code', 'kind', 'value', 'requestId'],
        ),
        response: responses(alertSchema),
      },
    },
    async (request) => ok(await addAlert(station, app.auth.session(request).userId, request.body)),
  );

  app.post<{ Body: CallIn<'POST /user/alert/del.do'> }>(
    '/user/alert/del.do',
    {
      schema: {
        tags,
        summary: 'Delete a price alert (harmless when it is not there)',
        security: userSecurity,
        consumes: postConsumes,
        body: fields({ id: idField }, ['id']),
        response: responses({ type: 'null' }),
      },
    },
    async (request) => ok(await deleteAlert(station, app.auth.session(request).userId, request.body.id)),
  );

  app.post<{ Body: CallIn<'POST /user/alert/rearm.do'> }>(
    '/user/alert/rearm.do',
    {
      schema: {
        tags,
        summary:
          'Arm a fired alert again from now (an armed one is answered as it is); VALIDATION ' +
          '(alertAlreadyMet) when it would fire at once',
        security: userSecurity,
        consumes: postConsumes,
        body: fields({ id: idField }, ['id']),
        response: responses(alertSchema),
      },
    },
    async (request) => ok(await rearmAlert(station, app.auth.session(request).userId, request.body.id)),
  );
};

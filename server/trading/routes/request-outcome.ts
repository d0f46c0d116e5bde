/**
 * request/outcome.do: what became of a money call whose answer was lost on the way (API.md "Idempotency").
 * The station stores the first answer to each (user, requestId) with the change itself; this returns it,
 * or "not seen". It lives with the trading calls, the calls whose answers a flaky link loses most, but
 * answers for every call that takes a requestId (transfers, withdrawals, subscriptions alike).
 */
import type { FastifyInstance } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import { fields, ok, requestIdField, requestOutcome, responses, userSecurity } from '../../platform';

export function requestOutcomeRoute(app: FastifyInstance): void {
  const { station } = app;
  app.get<{ Querystring: CallIn<'GET /user/request/outcome.do'> }>(
    '/user/request/outcome.do',
    {
      schema: {
        tags: ['trade'],
        summary:
          'What became of a call that takes a requestId, when its answer was lost: the stored first answer, ' +
          'or seen: false (nothing was done; the same call with the same requestId may be sent again, and ' +
          'runs once)',
        security: userSecurity,
        querystring: fields({ requestId: requestIdField }, ['requestId']),
        response: responses({
          type: 'object',
          properties: {
            seen: {
              type: 'boolean',
              description: 'whether the station answered this requestId for this user',
            },
            call: { type: 'string', description: 'which call it was (buy, sell, transfer, withdraw…)' },
            answer: { description: "the first answer's data, as the call returned it" },
          },
          required: ['seen'],
        }),
      },
    },
    async (request) => {
      const found = await requestOutcome(
        station.db,
        app.auth.session(request).userId,
        request.query.requestId,
      );
      return ok(found ? { seen: true, call: found.call, answer: found.answer } : { seen: false });
    },
  );
}

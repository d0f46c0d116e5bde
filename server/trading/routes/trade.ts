/**
 * Trading calls: market buy on any market (buy.do) and in contracts (buyIndex.do, buyFutures.do), sell
 * (close all or part), margin top-up, the position list, whether a code is held, and the paper-account
 * reset. All need a session. The routes live by group beside their schemas (trade-buys, trade-positions);
 * this plugin guards them with the session check and registers them.
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import { resetPaperAccount } from '../../ledger';
import { ok, fields, postConsumes, ref, requestIdField, responses, userSecurity } from '../../platform';
import { buyRoute, contractBuyRoutes } from './trade-buys';
import { requestOutcomeRoute } from './request-outcome';
import { holdingRoute, positionListRoute, sellRoute, setStopsRoute, topUpRoute } from './trade-positions';

export const tradePlugin: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', app.auth.requireUser);
  // In the order the OpenAPI document has always listed them.
  buyRoute(app);
  contractBuyRoutes(app);
  sellRoute(app);
  topUpRoute(app);
  setStopsRoute(app);
  positionListRoute(app);
  holdingRoute(app);
  resetRoute(app);
  requestOutcomeRoute(app);
};

/** account/reset.do: every account back to its starting balance. */
function resetRoute(app: FastifyInstance): void {
  const { station } = app;
  app.post<{ Body: CallIn<'POST /user/account/reset.do'> }>(
    '/user/account/reset.do',
    {
      schema: {
        tags: ['trade'],
        summary:
          'Reset the paper account: every account back to its starting balance (one reset entry each); ' +
          'refused (RESET_BLOCKED) while a position is open or an order pending',
        security: userSecurity,
        consumes: postConsumes,
        body: fields({ requestId: requestIdField }, ['requestId']),
        response: responses({ type: 'array', items: ref('Account') }),
      },
    },
    async (request) =>
      ok(await resetPaperAccount(station, app.auth.session(request).userId, request.body.requestId)),
  );
}

/**
 * Funds and fund allocation. Fund products: the list and a fund's NAV history are public; buying, selling,
 * holdings and trade records need a session. Fund allocation (spec §7 "Funds", under /user/funds/):
 * settings, types, applying, the list of applications, the sub-account, its trading and positions, and
 * ending an allocation early. All need a session. The routes live by group beside their schemas
 * (fund-products, allocation-routes); this plugin registers them in order.
 */
import type { FastifyPluginAsync } from 'fastify';
import { allocationApplicationRoutes, allocationSubAccountRoutes } from './allocation-routes';
import { fundProductRoutes, fundTradingRoutes } from './fund-products';
import { sessionUserIdOf } from './fund-schemas';

const publicFundsPlugin: FastifyPluginAsync = async (app) => {
  fundProductRoutes(app);
};

const userFundsPlugin: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', app.auth.requireUser);
  const userId = sessionUserIdOf(app);
  // In the order the OpenAPI document has always listed them.
  fundTradingRoutes(app, userId);
  allocationApplicationRoutes(app, userId);
  allocationSubAccountRoutes(app, userId);
};

export const fundsPlugin: FastifyPluginAsync = async (app) => {
  await app.register(publicFundsPlugin);
  await app.register(userFundsPlugin);
};

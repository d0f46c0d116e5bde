/**
 * The wallet's calls (spec §7 "Cash" and "Exchange"): deposits, withdrawals, transfers between
 * the CNY accounts and the currency flash exchange. All need a session; money is in major units; the
 * pay channels are simulated (play money only). The routes live by group beside their schemas
 * (wallet-deposits, wallet-withdrawals, wallet-transfers); this plugin guards them with the session check
 * and registers them.
 */
import type { FastifyPluginAsync } from 'fastify';
import { depositRoutes } from './wallet-deposits';
import { exchangeRoutes, transferRoute } from './wallet-transfers';
import { withdrawalRoutes } from './wallet-withdrawals';

export const walletPlugin: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', app.auth.requireUser);
  // In the order the OpenAPI document has always listed them.
  depositRoutes(app);
  withdrawalRoutes(app);
  transferRoute(app);
  exchangeRoutes(app);
};

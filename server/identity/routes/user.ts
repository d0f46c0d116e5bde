/**
 * User calls: SMS codes, phone check, registration, login, logout, and the user's own info. The routes live
 * by group beside their schemas (user-codes, user-sign-in, user-account); this plugin registers them in order.
 */
import type { FastifyPluginAsync } from 'fastify';
import { userAccountRoutes } from './user-account';
import { signInRoutes } from './user-sign-in';
import { smsCodeRoutes } from './user-codes';

export const userPlugin: FastifyPluginAsync = async (app) => {
  // In the order the OpenAPI document has always listed them.
  smsCodeRoutes(app);
  signInRoutes(app);
  userAccountRoutes(app);
};

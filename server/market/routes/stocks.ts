/**
 * Market data of the simulated exchange: quote lists, single stocks, boards, day and minute bars. The routes
 * live by group beside their schemas (market-quotes, market-detail, market-boards, market-bars); this plugin
 * registers them with the answer caches they share.
 */
import type { FastifyPluginAsync } from 'fastify';
import { BodyCache } from '../../platform';
import { dayBarsRoute, minuteBarsRoute } from './market-bars';
import { dragonTigerRoute, haltsRoute, limitUpBoardRoute, moveCountsRoute } from './market-boards';
import { singleStockRoute, stockByCodeRoute } from './market-detail';
import { marketCalendarRoute } from './market-calendar';
import { marketStateRoute } from './market-state';
import { stockFiguresRoute, stockNewsDetailRoute, stockNewsRoute } from './stock-facts';
import { quotePageRoute, searchRoute, sortedPageRoute, topRoute } from './market-quotes';

export const marketPlugin: FastifyPluginAsync = async (app) => {
  // Quote pages hold for the clock second they were computed in; bars until their instrument's minute moves.
  const pages = new BodyCache(256);
  const bars = new BodyCache(128);
  // In the order the OpenAPI document has always listed them.
  quotePageRoute(app, pages);
  singleStockRoute(app);
  searchRoute(app);
  sortedPageRoute(app, pages);
  moveCountsRoute(app);
  haltsRoute(app);
  stockByCodeRoute(app);
  topRoute(app);
  limitUpBoardRoute(app);
  dragonTigerRoute(app);
  dayBarsRoute(app, bars);
  minuteBarsRoute(app, bars);
  marketStateRoute(app);
  stockFiguresRoute(app);
  stockNewsRoute(app);
  stockNewsDetailRoute(app);
  marketCalendarRoute(app);
};

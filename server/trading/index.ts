/**
 * The trading area's one door (CONVENTIONS.md "A folder per area, a door per folder"): what other areas and
 * the station's root use of it. Other areas import it from here, never from its modules.
 */
export { accountRiskStateOf } from './account-risk';
export { createEngine, type Engine, type EngineStepResult } from './engine';
export { tradeFees } from './fees';
export { lockAccountById, openPositionTx, openingCost } from './limit-orders';
export { assertLeverage } from './margin';
export { alertsPlugin } from './routes/alerts';
export { ordersPlugin } from './routes/limit-orders';
export { tradePlugin } from './routes/trade';
export { watchlistPlugin } from './routes/watchlist';
export {
  assertPriceLimit,
  closePositionTx,
  maxLotsPerOrder,
  sell,
  sharesPerLot,
  tradableOf,
} from './trading';
export { positionTerms, toPosition } from './views';

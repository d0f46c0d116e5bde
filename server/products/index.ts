/**
 * The products area's one door (CONVENTIONS.md "A folder per area, a door per folder"): what other areas and
 * the station's root use of it. Other areas import it from here, never from its modules.
 */
export { endLiquidatedAllocation, runDueAllocationEvents } from './fund-allocation';
export { stationMarket } from './new-share-calendar';
export { runDueNewShareEvents } from './new-shares';
export { blockTradesVipPlugin } from './routes/block-trades-vip';
export { fundLocalName } from './fund-catalogue';
export { fundsPlugin } from './routes/funds';
export { newSharesPlugin } from './routes/new-shares';

/**
 * The first reads of each preloading route, by name: loaded, with the preloading code, only when a loader
 * first runs (route-prefetch.ts), so neither adds to the shell's first visit.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { Locales } from '../../../locales/i18n-types';
import { prefetchReads } from '../api/prefetch';
import type { StationRead } from '../api/reads';
import type { InstrumentKind } from '../api/trading-data';
import { USER_CENTRE_READS } from './account/account-reads';
import { homeReads } from './home/home-reads';
import { competitionScreenReads } from './competitions/competition-reads';
import { firstQuotesRead, stockRead, WATCHLIST_READ } from './market/market-reads';
import type { QuoteSort } from './market/QuoteList';
import { orderScreenReads, positionsRead, warehouseReads } from './trade/trade-reads';
import {
  EXCHANGE_READS,
  RECHARGE_READS,
  TRANSFER_READS,
  WALLET_READS,
  WITHDRAW_READS,
} from './wallet/wallet-reads';

type Reads = readonly (StationRead | null)[];

const ROUTE_READS = {
  home: (_: undefined, locale: Locales): Reads => homeReads(locale),
  user: (): Reads => USER_CENTRE_READS,
  marketList: (deps: { market?: string; sort?: QuoteSort }): Reads => [
    firstQuotesRead(deps.market ?? 'a', deps.sort),
  ],
  stock: (deps: { code: string }): Reads => (deps.code ? [stockRead(deps.code)] : []),
  watchlist: (): Reads => [WATCHLIST_READ],
  order: (deps: { kind: InstrumentKind; code: string }): Reads => orderScreenReads(deps.kind, deps.code),
  warehouse: (deps: { tab?: 'orders' | 'closed' }): Reads => warehouseReads(deps.tab),
  positions: (deps: { state: 'open' | 'closed' }): Reads => [positionsRead(deps.state)],
  wallet: (): Reads => WALLET_READS,
  recharge: (): Reads => RECHARGE_READS,
  withdraw: (): Reads => WITHDRAW_READS,
  transfer: (): Reads => TRANSFER_READS,
  exchange: (): Reads => EXCHANGE_READS,
  competition: (deps: { id?: number | undefined }): Reads => competitionScreenReads(deps.id),
};

export type RouteReads = typeof ROUTE_READS;

export function prefetchRoute<N extends keyof RouteReads>(
  client: QueryClient,
  name: N,
  deps: Parameters<RouteReads[N]>[0],
): void {
  const reads = ROUTE_READS[name] as (deps: Parameters<RouteReads[N]>[0], locale: Locales) => Reads;
  prefetchReads(client, (locale) => reads(deps, locale));
}

/**
 * Routes every call of the station's API (same-origin /api/, /user/, /code/ paths, as the app's client
 * makes them) to its strategy (api-routes.ts), against the discovered base URL. The live stream is left to
 * the browser.
 */
import type { RouteHandlerCallbackOptions } from 'workbox-core/types';
import { registerRoute } from 'workbox-routing';
import type { Strategy } from 'workbox-strategies';
import { classifyApiRequest, type ApiRoute } from './api-routes';
import type { DataLayer } from './data-layer';
import { QueueWhenOffline, type Outbox } from './outbox';
import {
  GuardedNetworkOnly,
  KlineNetworkFirst,
  NetworkFirstToDb,
  StaleWhileRevalidateToDb,
} from './strategies';
import { UserNetworkFirst } from './user-answers';
import { WatchlistNetworkFirst, WatchStateFromList } from './watchlist';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD'] as const;

export function routeApiCalls(layer: DataLayer, outbox: Outbox): void {
  const strategies = new Map<string, Strategy>();
  const strategyFor = (route: Exclude<ApiRoute, { kind: 'stream' }>): Strategy => {
    const id = JSON.stringify(route);
    let strategy = strategies.get(id);
    if (!strategy) {
      switch (route.kind) {
        case 'network-first':
          strategy = new NetworkFirstToDb(layer, route.store);
          break;
        case 'kline':
          strategy = new KlineNetworkFirst(layer, route.family, route.day);
          break;
        case 'stale-while-revalidate':
          strategy = new StaleWhileRevalidateToDb(layer, route.store);
          break;
        case 'queue-offline':
          strategy = new QueueWhenOffline(layer, outbox);
          break;
        case 'watchlist':
          strategy = new WatchlistNetworkFirst(layer, outbox);
          break;
        case 'watch-state':
          strategy = new WatchStateFromList(layer, outbox);
          break;
        case 'user-network-first':
          strategy = new UserNetworkFirst(layer);
          break;
        case 'network-only':
          strategy = new GuardedNetworkOnly(layer, route.mutation);
          break;
      }
      strategies.set(id, strategy);
    }
    return strategy;
  };

  const handler = ({ request, event }: RouteHandlerCallbackOptions): Promise<Response> => {
    const route = classifyApiRequest(request.method, new URL(request.url).pathname);
    if (!route || route.kind === 'stream') return fetch(request);
    return strategyFor(route).handle({ request, event });
  };

  for (const method of METHODS) {
    registerRoute(
      ({ url, request, sameOrigin }) => {
        if (!sameOrigin) return false;
        const route = classifyApiRequest(request.method, url.pathname);
        return route !== null && route.kind !== 'stream';
      },
      handler,
      method,
    );
  }
}

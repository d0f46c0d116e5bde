import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NAVIGATION_DENYLIST } from './navigation-denylist';

/**
 * The app shell: the built files are precached, and every app route opens index.html from the cache,
 * so the app starts offline. API calls have no route here, so they always go to the network: money
 * calls are never cached (ARCHITECTURE "Orders and money").
 */
export function routeAppShell(manifest: (string | PrecacheEntry)[]): void {
  precacheAndRoute(manifest);
  cleanupOutdatedCaches();
  registerRoute(
    new NavigationRoute(createHandlerBoundToURL('/index.html'), {
      denylist: [...NAVIGATION_DENYLIST],
    }),
  );
}

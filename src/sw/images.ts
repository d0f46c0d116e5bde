/**
 * Pictures the screens show (banners, article images, uploads): cache first with a bounded, expiring
 * cache (workbox-expiration), so a revisited article shows its pictures offline.
 */
import { ExpirationPlugin } from 'workbox-expiration';
import { registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';

export const IMAGE_CACHE = 'paperdesk-images';

export function routeImages(): void {
  registerRoute(
    ({ request, url, sameOrigin }) =>
      request.destination === 'image' && !(sameOrigin && url.pathname.startsWith('/icons/')),
    new CacheFirst({
      cacheName: IMAGE_CACHE,
      plugins: [
        new ExpirationPlugin({
          maxEntries: 120,
          maxAgeSeconds: 30 * 24 * 60 * 60,
          purgeOnQuotaError: true,
        }),
      ],
    }),
  );
}

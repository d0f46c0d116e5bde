import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
  type PrecacheEntry,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { NAVIGATION_DENYLIST } from './navigation-denylist';

/** The built files outside the first screens, cached as they are used and warmed after control. */
export const LATER_CACHE = 'paperdesk-later';

/** A precache entry as the build writes it: `later` marks files outside the first screens (vite.config.ts). */
export type ShellEntry = string | (PrecacheEntry & { later?: boolean });

/**
 * The app shell: the first screens' files (the tabs, login, the stylesheet, the default language) are
 * precached, so the service worker controls the page as soon as those few hundred kilobytes are in, even on
 * a slow link; every app route opens its page (a tab's prerendered one, else index.html) from the cache, so
 * the app starts offline. The other built
 * files (hashed, so never changed under one name) are served cache-first and fetched in the background once
 * the worker controls the page (`LaterFiles`). API calls have no route here: money calls are never cached
 * (ARCHITECTURE "Orders and money").
 */
export function routeAppShell(manifest: readonly ShellEntry[], origin: string): LaterFiles {
  const first = manifest.filter((entry) => typeof entry === 'string' || !entry.later);
  const later = manifest.flatMap((entry) =>
    typeof entry !== 'string' && entry.later ? [new URL(entry.url, `${origin}/`).href] : [],
  );
  precacheAndRoute(first);
  cleanupOutdatedCaches();
  const files = new LaterFiles(later);
  registerRoute(({ url }) => files.has(url.href), new CacheFirst({ cacheName: LATER_CACHE }));
  // A tab screen opens its own prerendered page (its first frame painted without JavaScript), any other
  // route index.html; the same files the station answers with online (server/platform/http/static.ts).
  for (const entry of first) {
    const url = typeof entry === 'string' ? entry : entry.url;
    const appPath = prerenderedPath(url);
    if (!appPath) continue;
    registerRoute(
      new NavigationRoute(createHandlerBoundToURL(`/${url}`), {
        allowlist: [new RegExp(`^${appPath}(\\?|$)`)],
        denylist: [...NAVIGATION_DENYLIST],
      }),
    );
  }
  registerRoute(
    new NavigationRoute(createHandlerBoundToURL('/index.html'), {
      denylist: [...NAVIGATION_DENYLIST],
    }),
  );
  return files;
}

/** The app path a prerendered page is for (`shell/home.html` → `/home`; vite.config.ts shellFile), or null. */
export function prerenderedPath(url: string): string | null {
  const match = /^\/?shell\/([A-Za-z0-9-]+)\.html$/.exec(url);
  return match ? `/${match[1]}` : null;
}

/**
 * How many files the warming fetches at once: enough to hide a slow link's round trips, few enough that the
 * user's own requests (the browser opens six connections to a host) are not queued behind it.
 */
const WARM_CONCURRENCY = 2;

/**
 * The built files outside the first screens. `warm` fetches the ones not cached yet, a few at a time, drops those of earlier builds, and resolves when every
 * screen is available offline; a failure (the link went away) leaves the rest for the next call.
 */
export class LaterFiles {
  readonly #urls: readonly string[];
  readonly #set: ReadonlySet<string>;
  #warming: Promise<boolean> | null = null;

  constructor(urls: readonly string[]) {
    this.#urls = urls;
    this.#set = new Set(urls);
  }

  has(url: string): boolean {
    return this.#set.has(url);
  }

  /** True once every file is cached; false when the link failed before that. */
  warm(): Promise<boolean> {
    this.#warming ??= this.#fill().then((ready) => {
      if (!ready) this.#warming = null;
      return ready;
    });
    return this.#warming;
  }

  async #fill(): Promise<boolean> {
    const cache = await caches.open(LATER_CACHE);
    for (const request of await cache.keys()) {
      if (!this.#set.has(request.url)) await cache.delete(request);
    }
    const missing: string[] = [];
    for (const url of this.#urls) if (!(await cache.match(url))) missing.push(url);
    let failed = false;
    const fetchNext = async (): Promise<void> => {
      for (let url = missing.shift(); url !== undefined && !failed; url = missing.shift()) {
        try {
          const response = await fetch(url);
          if (!response.ok) throw new Error(`${response.status}`);
          await cache.put(url, response);
        } catch {
          failed = true;
        }
      }
    };
    await Promise.all(Array.from({ length: WARM_CONCURRENCY }, fetchNext));
    return !failed;
  }
}

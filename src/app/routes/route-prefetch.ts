/**
 * Route loaders that preload a screen's first reads into the query cache, so `defaultPreload: 'intent'`
 * (router.tsx) fetches a screen's data beside its code. The loader neither waits nor fails: it starts the
 * reads and returns, and the screen shows its own loading state as before until they answer. Which reads
 * (route-reads.ts) and the preloading code load only when a loader first runs.
 */
import type { RouteReads } from './route-reads';
import type { RouterContext } from './route-tree';

/**
 * Off until the first screen has loaded: that screen asks for its own reads as it renders, and its loader's
 * copy would add the preloading code and every area's read list to the first visit's JavaScript.
 */
let preloading = false;

/** From now on, loaders preload (main.tsx, once the first screen is in). */
export function startPreloading(): void {
  preloading = true;
}

export function prefetch<N extends keyof RouteReads>(
  context: RouterContext,
  name: N,
  deps: Parameters<RouteReads[N]>[0],
): void {
  if (!preloading) return;
  void import('./route-reads').then(
    ({ prefetchRoute }) => prefetchRoute(context.queryClient, name, deps),
    // The chunk could not load (offline, a new deployment): the screen asks for itself.
    () => undefined,
  );
}

/**
 * Route loaders that preload a screen's first reads into the query cache, so `defaultPreload: 'intent'`
 * (router.tsx) fetches a screen's data beside its code. The loader neither waits nor fails: it starts the
 * reads and returns, and the screen shows its own loading state as before until they answer. The
 * preloading code (api/prefetch.ts, beside the query hooks) loads only when a loader first runs.
 */
import type { Locales } from '../../../locales/i18n-types';
import type { StationRead } from '../api/reads';
import type { RouterContext } from './route-tree';

/** What a screen reads first, in the current language (some reads carry it as a parameter). */
export type FirstReads = (locale: Locales) => readonly (StationRead | null)[];

export function prefetch(context: RouterContext, reads: FirstReads): void {
  void import('../api/prefetch').then(
    ({ prefetchReads }) => prefetchReads(context.queryClient, reads),
    // The chunk could not load (offline, a new deployment): the screen asks for itself.
    () => undefined,
  );
}

/**
 * The query cache itself (TanStack Query's QueryClient), apart from the hooks of station-query.ts: the
 * app's entry needs only this to put the provider at the root, and the hooks' code (the observers) loads
 * with the first screen that reads station data, not with every first visit.
 *
 * Query's cache is memory only. The service worker stays the offline and caching layer underneath: every
 * query runs `call()`, which goes through it, so a read offline is answered from IndexedDB and keeps its
 * "as of" (state/connection.ts). That is why queries run whatever the browser says about the network
 * (networkMode 'always'): Query would otherwise pause them offline and the stored answer would never show.
 */
import { QueryClient } from '@tanstack/react-query';
import type { CallOut } from '../../shared/api/calls';
import { currentLocale } from '../i18n/locale';
import { session$, setSessionUser } from '../state/session';
import { call, toApiError } from './client';
import { callPrefix, invalidatedBy, queryKeyOf, type MutationCallKey } from './query-keys';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      networkMode: 'always',
      // A failed read shows its error with a retry button (StatusViews); retrying by itself three times
      // offline would only add requests the service worker answers the same way.
      retry: false,
      // A screen that opens asks again (as before Query); the tab coming back does not: the stream and
      // the polls keep what is on screen fresh, and a returning tab would refetch every query at once.
      refetchOnWindowFocus: false,
      // Back online: each query on screen asks once (de-duplicated by key), not every poll at once.
      refetchOnReconnect: true,
    },
    mutations: { networkMode: 'always', retry: false },
  },
});

// Whose data it is changes on login, registration and logout: nothing of the previous session may show.
let lastToken = session$.token.peek();
session$.token.onChange(({ value }) => {
  if (value === lastToken) return;
  lastToken = value;
  queryClient.clear();
});

// The session's user (read by the shell and the forms through session$) follows every fresh answer of the
// user call, whichever screen asked: one source, the cache.
const USER_CALL = 'GET /user/getUserInfo.do';
queryClient.getQueryCache().subscribe((event) => {
  if (event.type !== 'updated' || event.action.type !== 'success') return;
  if (event.query.queryKey[0] !== USER_CALL) return;
  setSessionUser(event.query.state.data as CallOut<'GET /user/getUserInfo.do'>);
});

/** Fresh user info (accounts and balances) from the station, into the cache and so into the session. */
export function fetchFreshUser(signal?: AbortSignal): Promise<CallOut<'GET /user/getUserInfo.do'>> {
  return queryClient.fetchQuery({
    queryKey: queryKeyOf(USER_CALL, {}, currentLocale()),
    queryFn: ({ signal: querySignal }) =>
      call('GET /user/getUserInfo.do', {}, { signal: signal ?? querySignal }).catch(rethrowAsApiError),
    staleTime: 0,
  });
}

/** A failure as the ApiError screens show; an abort (the screen went away) stays an abort for Query. */
export function rethrowAsApiError(error: unknown): never {
  if (error instanceof DOMException && error.name === 'AbortError') throw error;
  throw toApiError(error);
}

/** Marks stale what a successful change altered (INVALIDATES); screens showing it refetch at once. */
export function invalidateAfter(key: MutationCallKey): Promise<void> {
  return Promise.all(
    invalidatedBy(key).map((stale) => queryClient.invalidateQueries({ queryKey: callPrefix(stale) })),
  ).then(() => undefined);
}

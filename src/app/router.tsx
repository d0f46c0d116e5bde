/**
 * The router over the route tree (routes/route-tree.tsx), with the shell (RootLayout) at its root.
 */
import { createRouter, stringifySearchWith, type RouterHistory } from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { queryClient } from './api/query-client';
import { ErrorState, Loading } from './components/StatusViews';
import { RootLayout } from './routes/RootLayout';
import { buildRouteTree } from './routes/route-tree';

/** Every search value as the string in the URL (the router's default would turn "600519" into a number). */
function parsePlainSearch(search: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(search));
}

/**
 * The router, created when main.tsx asks, in a task of its own at start-up (building the tree and the matcher
 * for every route is a measurable share of start-up on a slow phone).
 */
export const createAppRouter = (options: { history?: RouterHistory; queryClient?: QueryClient } = {}) =>
  createRouter({
    routeTree: buildRouteTree(RootLayout),
    context: { queryClient: options.queryClient ?? queryClient },
    ...(options.history ? { history: options.history } : {}),
    caseSensitive: true,
    // Search values stay plain strings both ways (?code=600519, not ?code=%22600519%22 or the number
    // 600519): stock codes are strings, digits-only or with leading zeros.
    parseSearch: parsePlainSearch,
    stringifySearch: stringifySearchWith(JSON.stringify),
    defaultPreload: 'intent',
    defaultPendingComponent: () => <Loading />,
    defaultPendingMs: 150,
    defaultErrorComponent: ({ error, reset }) => (
      <ErrorState error={error instanceof Error ? error : new Error(String(error))} onRetry={reset} />
    ),
    scrollRestoration: true,
  });

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}

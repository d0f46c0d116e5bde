/**
 * The app's routes as the route tree declares them (src/app/routes/route-tree.tsx), read in node: the router
 * built without the shell, so no screen, stylesheet or DOM is loaded. Type-checked by tsconfig.app-tests.json
 * (the tree's lazy screens need the app's JSX and DOM types).
 */
import { QueryClient } from '@tanstack/react-query';
import { createMemoryHistory, createRouter, type AnyRoute } from '@tanstack/react-router';
import { buildRouteTree } from '../src/app/routes/route-tree';
import type { AppPath, RouteMeta } from '../src/app/routes/route-meta';

/** A router over the app's tree, as router.tsx makes it (case-sensitive), minus the shell. */
export function appRouter(queryClient = new QueryClient()) {
  return createRouter({
    routeTree: buildRouteTree(),
    history: createMemoryHistory({ initialEntries: ['/home'] }),
    caseSensitive: true,
    context: { queryClient },
  });
}

/** A route's metadata, or null (the root and the `/` redirect have none). */
export function metaOf(route: AnyRoute): RouteMeta | null {
  return (route.options.staticData as { meta?: RouteMeta | null } | undefined)?.meta ?? null;
}

export interface AppScreen {
  readonly path: AppPath;
  readonly meta: RouteMeta;
}

/** Every route with a screen, in index order (the order page transitions slide by). */
export function appScreens(router: ReturnType<typeof appRouter> = appRouter()): AppScreen[] {
  return Object.values(router.routesById as Record<string, AnyRoute>)
    .flatMap((route) => {
      const meta = metaOf(route);
      return meta ? [{ path: route.fullPath as AppPath, meta }] : [];
    })
    .sort((a, b) => a.meta.index - b.meta.index);
}

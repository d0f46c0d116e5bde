/**
 * The route tree, built in code rather than from files: the spec's paths differ only by case
 * (/MyList and /mylist, /user and /User), which file names cannot hold apart on every file system.
 * Each route declares its path once, with what the shell shows around it (`staticData`, route-meta.ts).
 * Screens are code-split, and nothing here imports a screen, a stylesheet or the DOM: tests read the tree
 * in node (tests/unit/app-route-table.test.ts checks it against the spec's route list).
 */
import {
  Navigate,
  createRootRouteWithContext,
  createRoute,
  lazyRouteComponent,
  redirect,
  type RouteComponent,
} from '@tanstack/react-router';
import type { QueryClient } from '@tanstack/react-query';
import { loadCurrentTexts } from '../i18n/locale';
import { screen } from './route-meta';
import { prefetch } from './route-prefetch';
import { contentRoutes } from './content/content-routes';
import { marketRoutes } from './market/market-routes';
import { tradeRoutes } from './trade/trade-routes';
import { accountRoutes } from './account/account-routes';
import { walletRoutes } from './wallet/wallet-routes';
import { dzVipRoutes } from './products/dzvip/dzvip-routes';
import { fundsRoutes } from './products/funds/funds-routes';
import { newShareRoutes } from './products/newshares/newshare-routes';
import { competitionRoutes } from './competitions/competition-routes';

/** What every route's loader gets: the app's query cache, so a preload fetches a screen's first data too. */
export interface RouterContext {
  readonly queryClient: QueryClient;
}

/** Where the root path and every unknown path go (spec §2). */
export const HOME_PATH = '/home';

function RedirectHome() {
  return <Navigate to={HOME_PATH} replace />;
}

/** Screens drawn with the first part of the dictionary alone (src/app/i18n/first-texts.ts). */
const FIRST_TEXT_PATHS: ReadonlySet<string> = new Set(['/', HOME_PATH]);

function appRootRoute(shell?: RouteComponent) {
  return createRootRouteWithContext<RouterContext>()({
    staticData: { meta: null },
    ...(shell ? { component: shell } : {}),
    // Any other screen waits for the rest of its language's texts (a preload on intent fetches them early).
    beforeLoad: async ({ location }) => {
      if (!FIRST_TEXT_PATHS.has(location.pathname)) await loadCurrentTexts();
    },
    // spec §2: any unknown path redirects to /home.
    notFoundComponent: RedirectHome,
  });
}

/** The root the area route files (market-routes.tsx and the others) hang their routes on. */
export type AppRootRoute = ReturnType<typeof appRootRoute>;

/**
 * The tree, with `shell` as the root's component (router.tsx passes RootLayout; tests pass nothing, so the
 * shell's modules stay out of node).
 */
export function buildRouteTree(shell?: RouteComponent) {
  const rootRoute = appRootRoute(shell);

  const indexRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: '/',
    staticData: { meta: null },
    beforeLoad: () => {
      throw redirect({ to: HOME_PATH, replace: true });
    },
  });

  const homeRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: '/home',
    staticData: screen(0, 'home', 'public', { header: 'none', tabBar: true }),
    loader: ({ context }) => prefetch(context, 'home', undefined),
    component: lazyRouteComponent(() => import('./home/HomeScreen'), 'HomeScreen'),
  });

  const userRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: '/user',
    staticData: screen(88, 'user', 'public', { header: 'title', tabBar: true }),
    loader: ({ context }) => prefetch(context, 'user', undefined),
    component: lazyRouteComponent(() => import('./account/UserScreen'), 'UserScreen'),
  });

  const loginRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: '/login',
    staticData: screen(58, 'login', 'public'),
    component: lazyRouteComponent(() => import('./account/LoginScreen'), 'LoginScreen'),
  });

  const registerRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: '/register',
    staticData: screen(59, 'register', 'public'),
    component: lazyRouteComponent(() => import('./account/RegisterScreen'), 'RegisterScreen'),
  });

  const fundingDetailsRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: '/FundingDetails',
    staticData: screen(79, 'fundingDetails', 'session'),
    component: lazyRouteComponent(() => import('./wallet/FundFlowScreen'), 'FundFlowScreen'),
  });

  return rootRoute.addChildren([
    indexRoute,
    homeRoute,
    userRoute,
    loginRoute,
    registerRoute,
    fundingDetailsRoute,
    ...contentRoutes(rootRoute),
    ...marketRoutes(rootRoute),
    ...tradeRoutes(rootRoute),
    ...accountRoutes(rootRoute),
    ...walletRoutes(rootRoute),
    ...dzVipRoutes(rootRoute),
    ...fundsRoutes(rootRoute),
    ...newShareRoutes(rootRoute),
    ...competitionRoutes(rootRoute),
  ]);
}

/**
 * The route tree, built in code rather than from files: the spec's paths differ only by case
 * (/MyList and /mylist, /user and /User), which file names cannot hold apart on every file system.
 * Screens are code-split; the route table (routes/route-table.ts) says how the shell presents each.
 */
import {
  Navigate,
  createRootRoute,
  createRoute,
  createRouter,
  lazyRouteComponent,
  redirect,
  stringifySearchWith,
} from '@tanstack/react-router';
import { ErrorState, Loading } from './components/StatusViews';
import { RootLayout } from './routes/RootLayout';
import { loadCurrentTexts } from './i18n/locale';
import { HOME_PATH, type AppPath } from './routes/route-table';
import { CONTENT_PATHS, contentRoutes } from './routes/content/content-routes';
import { MARKET_PATHS, marketRoutes } from './routes/market/market-routes';
import { TRADE_PATHS, tradeRoutes } from './routes/trade/trade-routes';
import { ACCOUNT_PATHS, accountRoutes } from './routes/account/account-routes';
import { WALLET_PATHS, walletRoutes } from './routes/wallet/wallet-routes';
import { DZVIP_PATHS, dzVipRoutes } from './routes/products/dzvip/dzvip-routes';
import { FUNDS_PATHS, fundsRoutes } from './routes/products/funds/funds-routes';
import { NEWSHARE_PATHS, newShareRoutes } from './routes/products/newshares/newshare-routes';

function RedirectHome() {
  return <Navigate to={HOME_PATH} replace />;
}

/** Screens drawn with the first part of the dictionary alone (src/app/i18n/first-texts.ts). */
const FIRST_TEXT_PATHS: ReadonlySet<string> = new Set(['/', HOME_PATH]);

const rootRoute = createRootRoute({
  component: RootLayout,
  // Any other screen waits for the rest of its language's texts (a preload on intent fetches them early).
  beforeLoad: async ({ location }) => {
    if (!FIRST_TEXT_PATHS.has(location.pathname)) await loadCurrentTexts();
  },
  // spec §2: any unknown path redirects to /home.
  notFoundComponent: RedirectHome,
});

/** Every search value as the string in the URL (the router's default would turn "600519" into a number). */
function parsePlainSearch(search: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(search));
}

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: HOME_PATH, replace: true });
  },
});

const homeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/home',
  component: lazyRouteComponent(() => import('./routes/home/HomeScreen'), 'HomeScreen'),
});

const userRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/user',
  component: lazyRouteComponent(() => import('./routes/account/UserScreen'), 'UserScreen'),
});

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  component: lazyRouteComponent(() => import('./routes/account/LoginScreen'), 'LoginScreen'),
});

const registerRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/register',
  component: lazyRouteComponent(() => import('./routes/account/RegisterScreen'), 'RegisterScreen'),
});

const fundingDetailsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/FundingDetails',
  component: lazyRouteComponent(() => import('./routes/wallet/FundFlowScreen'), 'FundFlowScreen'),
});

/** Paths with a route of their own above; together they must be every path of the route table. */
const _OWN_PATHS = [
  '/home',
  '/user',
  '/login',
  '/register',
  '/FundingDetails',
  ...CONTENT_PATHS,
  ...MARKET_PATHS,
  ...TRADE_PATHS,
  ...ACCOUNT_PATHS,
  ...WALLET_PATHS,
  ...DZVIP_PATHS,
  ...FUNDS_PATHS,
  ...NEWSHARE_PATHS,
] as const satisfies readonly AppPath[];
/** Compile-time: a path of the route table (spec §2) without a screen fails the build. */
type MissingPath = Exclude<AppPath, (typeof _OWN_PATHS)[number]>;
const everyPathHasAScreen: [MissingPath] extends [never] ? true : MissingPath = true;
void everyPathHasAScreen;

const routeTree = rootRoute.addChildren([
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
]);

/**
 * The router, created when main.tsx asks, in a task of its own at start-up (building the matcher for every
 * route is a measurable share of start-up on a slow phone).
 */
export const createAppRouter = () =>
  createRouter({
    routeTree,
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

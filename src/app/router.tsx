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
import type { StockMarket } from '../shared/api/types';
import { ErrorState, Loading } from './components/StatusViews';
import { RootLayout } from './routes/RootLayout';
import { HOME_PATH, ROUTE_TABLE, type AppPath } from './routes/route-table';

const notBuiltScreen = lazyRouteComponent(() => import('./routes/NotBuiltScreen'), 'NotBuiltScreen');

function RedirectHome() {
  return <Navigate to={HOME_PATH} replace />;
}

const rootRoute = createRootRoute({
  component: RootLayout,
  // spec §2: any unknown path redirects to /home.
  notFoundComponent: RedirectHome,
});

const str = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** Every search value as the string in the URL (the router's default would turn "600519" into a number). */
function parsePlainSearch(search: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(search));
}

/** `?code=` of the detail and buy screens. */
const codeSearch = (search: Record<string, unknown>): { code: string } => ({ code: str(search.code) });

const MARKETS: readonly StockMarket[] = ['a', 'star', 'hk', 'us'];
const marketSearch = (search: Record<string, unknown>): { market?: StockMarket } => {
  const market = str(search.market) as StockMarket;
  return MARKETS.includes(market) ? { market } : {};
};

const positionsSearch = (search: Record<string, unknown>): { state?: 'open' | 'closed' } =>
  search.state === 'closed' ? { state: 'closed' } : {};

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

const tradingListRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/trading-list',
  validateSearch: marketSearch,
  component: lazyRouteComponent(() => import('./routes/market/TradingListScreen'), 'TradingListScreen'),
});

const hkListRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/hk-list',
  component: lazyRouteComponent(() => import('./routes/market/HkListScreen'), 'HkListScreen'),
});

const warehouseRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/warehouse',
  validateSearch: positionsSearch,
  component: lazyRouteComponent(() => import('./routes/trade/PositionsScreen'), 'PositionsScreen'),
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

const listDetailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/listdetail',
  validateSearch: codeSearch,
  component: lazyRouteComponent(() => import('./routes/market/StockDetailScreen'), 'StockDetailScreen'),
});

const buyRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/buy',
  validateSearch: codeSearch,
  component: lazyRouteComponent(() => import('./routes/trade/BuyScreen'), 'BuyScreen'),
});

const fundingDetailsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/FundingDetails',
  component: lazyRouteComponent(() => import('./routes/wallet/FundFlowScreen'), 'FundFlowScreen'),
});

/** spec §2 route list: /kline?code= is the full-screen candle chart. */
const klineRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/kline',
  validateSearch: codeSearch,
  component: lazyRouteComponent(() => import('./routes/market/KlineScreen'), 'KlineScreen'),
});

/** Paths with a route of their own above; every other route of the table shows the not-built page. */
const OWN_PATHS = [
  '/home',
  '/trading-list',
  '/hk-list',
  '/warehouse',
  '/user',
  '/login',
  '/register',
  '/listdetail',
  '/buy',
  '/FundingDetails',
  '/kline',
] as const satisfies readonly AppPath[];
type NotBuiltPath = Exclude<AppPath, (typeof OWN_PATHS)[number]>;
const isNotBuiltPath = (path: AppPath): path is NotBuiltPath =>
  !(OWN_PATHS as readonly AppPath[]).includes(path);

/** Routes a later issue builds: an honest, translated "not built yet" page (NotBuiltScreen). */
const notBuiltRoutes = ROUTE_TABLE.map((meta) => meta.path)
  .filter(isNotBuiltPath)
  .map((path) => createRoute({ getParentRoute: () => rootRoute, path, component: notBuiltScreen }));

const routeTree = rootRoute.addChildren([
  indexRoute,
  homeRoute,
  tradingListRoute,
  hkListRoute,
  warehouseRoute,
  userRoute,
  loginRoute,
  registerRoute,
  listDetailRoute,
  buyRoute,
  fundingDetailsRoute,
  klineRoute,
  ...notBuiltRoutes,
]);

export const router = createRouter({
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
    router: typeof router;
  }
}

/**
 * Every route of the app with what the shell needs to know about it: its translated title, which
 * chrome it shows, whether it needs a session, and its index (the order that decides whether a page
 * transition slides left or right). Paths keep the spec's spelling and case (§2): /MyList and /mylist
 * are different routes, so matching is case-sensitive everywhere.
 */
import type { Translation } from '../../../locales/i18n-types';

export type TitleKey = keyof Translation['titles'];

/** 'none': the screen draws its own top; 'title': a plain title bar; 'back': a title bar with a back arrow. */
export type HeaderKind = 'none' | 'title' | 'back';

export interface RouteMeta {
  readonly path: string;
  readonly titleKey: TitleKey;
  readonly header: HeaderKind;
  /** Shows the bottom tab bar (spec §2: routes without a header or tab bar are marked). */
  readonly tabBar: boolean;
  /**
   * spec §6: the requireAuth flag. Not a redirect (spec §4: none is enforced on the route level): while
   * logged out the shell shows a login prompt in place of the screen.
   */
  readonly requireAuth: boolean;
  /** Built in a later issue: the route shows an honest "not built yet" page. */
  readonly notBuilt?: boolean;
}

export const ROUTE_TABLE = [
  { path: '/home', titleKey: 'home', header: 'none', tabBar: true, requireAuth: false },
  { path: '/trading-list', titleKey: 'tradingList', header: 'title', tabBar: true, requireAuth: false },
  { path: '/hk-list', titleKey: 'hkList', header: 'title', tabBar: true, requireAuth: false },
  { path: '/warehouse', titleKey: 'warehouse', header: 'title', tabBar: true, requireAuth: true },
  { path: '/MyList', titleKey: 'myList', header: 'title', tabBar: true, requireAuth: false, notBuilt: true },
  { path: '/user', titleKey: 'user', header: 'title', tabBar: true, requireAuth: false },
  { path: '/listdetail', titleKey: 'listDetail', header: 'back', tabBar: false, requireAuth: false },
  { path: '/buy', titleKey: 'buy', header: 'back', tabBar: false, requireAuth: true },
  { path: '/FundingDetails', titleKey: 'fundingDetails', header: 'back', tabBar: false, requireAuth: true },
  { path: '/login', titleKey: 'login', header: 'back', tabBar: false, requireAuth: false },
  { path: '/register', titleKey: 'register', header: 'back', tabBar: false, requireAuth: false },
] as const satisfies readonly RouteMeta[];

export type AppPath = (typeof ROUTE_TABLE)[number]['path'];

/** The bottom tab bar's six areas, in order (spec §2). */
export const TAB_PATHS = [
  '/home',
  '/trading-list',
  '/hk-list',
  '/warehouse',
  '/MyList',
  '/user',
] as const satisfies readonly AppPath[];

export type TabPath = (typeof TAB_PATHS)[number];

/** Where the root path and every unknown path go (spec §2). */
export const HOME_PATH: AppPath = '/home';

export interface IndexedRouteMeta extends RouteMeta {
  readonly index: number;
}

const byPath = new Map<string, IndexedRouteMeta>(
  ROUTE_TABLE.map((meta, index): [string, IndexedRouteMeta] => [meta.path, { ...meta, index }]),
);

/**
 * The route a pathname shows, matched exactly and case-sensitively (a trailing slash is ignored, as the
 * router ignores it); undefined for an unknown path.
 */
export function findRouteMeta(pathname: string): IndexedRouteMeta | undefined {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return byPath.get(trimmed);
}

/** Slide direction of a page transition by route index: forward slides left, back slides right. */
export function slideDirection(from: string, to: string): 'left' | 'right' | 'none' {
  const a = findRouteMeta(from);
  const b = findRouteMeta(to);
  if (!a || !b || a.index === b.index) return 'none';
  return b.index > a.index ? 'left' : 'right';
}

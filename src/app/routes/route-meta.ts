/**
 * What the shell needs to know about a route, declared on the route itself (its `staticData`): its translated
 * title, which chrome it shows, whether it needs a session, and its index (the order that decides whether a
 * page transition slides left or right, spec §2). Paths keep the spec's spelling and case (§2): /MyList and
 * /mylist are different routes, so matching is case-sensitive everywhere.
 */
import type { RegisteredRouter } from '@tanstack/react-router';
import type { Translation } from '../../../locales/i18n-types';

/**
 * A path of a screen of the app (the `/` redirect aside), as the route tree spells it: the registered
 * router's (router.tsx). Where the router is not part of the program (the node-side tests), any string.
 */
export type AppPath = Exclude<Extract<keyof RegisteredRouter['routesByPath'], string>, '/'>;

export type TitleKey = keyof Translation['titles'];

/** 'none': the screen draws its own top; 'title': a plain title bar; 'back': a title bar with a back arrow. */
export type HeaderKind = 'none' | 'title' | 'back';

export interface HeaderAction {
  readonly icon: 'search' | 'more';
  /** A path of the route tree (tests/unit/app-route-table.test.ts checks that it has a route). */
  readonly to: string;
}

export interface RouteMeta {
  /**
   * The route's place in the spec §2 route list (the app's own routes slotted in): a change of page to a
   * higher index slides left, to a lower one right. Distinct per route.
   */
  readonly index: number;
  readonly titleKey: TitleKey;
  readonly header: HeaderKind;
  /** Shows the bottom tab bar (spec §2: routes without a header or tab bar are marked). */
  readonly tabBar: boolean;
  /**
   * spec §6: the requireAuth flag. Not a redirect (spec §4: none is enforced on the route level): while
   * logged out the shell shows a login prompt in place of the screen.
   */
  readonly requireAuth: boolean;
  /** spec §2: a back header may carry a search or a more icon, leading to another route. */
  readonly action?: HeaderAction;
}

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    /**
     * Required on every route, so a route cannot be added without saying how the shell shows it; null for a
     * route without a screen of its own (the root, the `/` redirect).
     */
    meta: RouteMeta | null;
  }
}

/**
 * The static data of a screen: a back-headed page without the tab bar unless `more` says otherwise.
 * 'session' is requireAuth.
 */
export function screen(
  index: number,
  titleKey: TitleKey,
  access: 'public' | 'session',
  more: { readonly header?: HeaderKind; readonly tabBar?: boolean; readonly action?: HeaderAction } = {},
): { meta: RouteMeta } {
  return {
    meta: {
      index,
      titleKey,
      header: more.header ?? 'back',
      tabBar: more.tabBar ?? false,
      requireAuth: access === 'session',
      ...(more.action ? { action: more.action } : {}),
    },
  };
}

/** Slide direction of a page transition by route index: forward slides left, back slides right. */
export function slideDirection(
  from: RouteMeta | null | undefined,
  to: RouteMeta | null | undefined,
): 'left' | 'right' | 'none' {
  if (!from || !to || from.index === to.index) return 'none';
  return to.index > from.index ? 'left' : 'right';
}

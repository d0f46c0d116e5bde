import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AnyRoute } from '@tanstack/react-router';
import { HOME_PATH } from '../../src/app/routes/route-tree';
import { slideDirection, type RouteMeta } from '../../src/app/routes/route-meta';
import { TAB_PATHS } from '../../src/app/state/shell';
import zhCN from '../../locales/zh-CN';
import en from '../../locales/en';
import zhTW from '../../locales/zh-TW';
import th from '../../locales/th';
import vi from '../../locales/vi';
import { appRouter, appScreens, metaOf } from '../app-routes';

/** The "Route list" line of spec §2, read from the spec itself. */
function specRoutes(): string[] {
  const spec = readFileSync(
    path.resolve(import.meta.dirname, '../../../shared/spec/product-spec.md'),
    'utf8',
  );
  const line = spec.split('\n').find((l) => l.startsWith('/home, /jijin'));
  if (!line) throw new Error('spec §2 route list not found');
  return line
    .replace(/\.$/, '')
    .split(',')
    .map((p) => p.replace(/\(.*\)/, '').trim());
}

/** Screens the app adds to the spec's list: the trading calendar (getCalendar.do), the competitions and the price alerts. */
const BEYOND_SPEC: readonly string[] = [
  '/calendar',
  '/competitions',
  '/competition',
  '/myCompetitions',
  '/competitionCreate',
  '/competitionEdit',
  '/alerts',
];

/** The router as the app builds it (router.tsx), without the shell: nothing here needs a DOM. */
const router = appRouter();
const allRoutes: AnyRoute[] = Object.values(router.routesById as Record<string, AnyRoute>);
/** Every route with a screen, and its metadata. */
const screens = appScreens(router);

/** The metadata of the route a pathname shows, as the router matches it; undefined for no route. */
function metaAt(pathname: string): RouteMeta | undefined {
  const [, , foundRoute] = router.getMatchedRoutes(pathname);
  return foundRoute ? (metaOf(foundRoute) ?? undefined) : undefined;
}

describe('route tree', () => {
  it('gives every route a screen’s metadata but the root and the / redirect', () => {
    const without = allRoutes.filter((route) => !metaOf(route)).map((route) => route.id as string);
    expect(without.sort()).toEqual(['/', '__root__']);
  });

  it('declares each path once', () => {
    const paths = screens.map((screen) => screen.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths.length).toBeGreaterThan(80);
  });

  it('has the six tabs of spec §2, each a route showing the tab bar', () => {
    expect(TAB_PATHS).toEqual(['/home', '/trading-list', '/hk-list', '/warehouse', '/MyList', '/user']);
    for (const path of TAB_PATHS) expect(metaAt(path)?.tabBar, path).toBe(true);
  });

  it('has a route for every path of the spec §2 route list, spelt and cased as written, plus the tabs and the app’s own', () => {
    const paths: string[] = screens.map((screen) => screen.path);
    const listed = specRoutes();
    expect(listed.length).toBeGreaterThan(80);
    expect(listed.filter((p) => !paths.includes(p))).toEqual([]);
    expect(
      paths.filter(
        (p) =>
          !listed.includes(p) && !(TAB_PATHS as readonly string[]).includes(p) && !BEYOND_SPEC.includes(p),
      ),
    ).toEqual([]);
  });

  it('matches case-sensitively: /MyList and /mylist, /user and /User are different routes', () => {
    expect(metaAt('/MyList')?.tabBar).toBe(true);
    expect(metaAt('/mylist')?.tabBar).toBe(false);
    expect(metaAt('/User')?.titleKey).toBe('personalCenter');
    expect(metaAt('/user')?.titleKey).toBe('user');
    expect(metaAt('/HOME')).toBeUndefined();
  });

  it('gives header actions only to headed routes, leading to routes that exist', () => {
    const withAction = screens.filter((screen) => screen.meta.action);
    expect(withAction.length).toBeGreaterThan(0);
    for (const { path, meta } of withAction) {
      expect(meta.header, path).not.toBe('none');
      expect(metaAt(meta.action!.to), path).toBeDefined();
    }
  });

  it('ignores a trailing slash but not an unknown path; home is a route', () => {
    expect(metaAt('/home/')?.titleKey).toBe('home');
    expect(metaAt('/no/such/page')).toBeUndefined();
    expect(HOME_PATH).toBe('/home');
    expect(metaAt(HOME_PATH)).toBeDefined();
  });

  it('has a translated title for every route in every locale', () => {
    for (const { path, meta } of screens) {
      for (const dict of [zhCN, en, zhTW, th, vi]) expect(dict.titles[meta.titleKey], path).toBeTruthy();
    }
  });

  it('gives routes distinct indexes in the order of the spec §2 route list, which decide the slide direction', () => {
    // appScreens lists them by index.
    const indexes = screens.map((screen) => screen.meta.index);
    expect(indexes).toEqual(indexes.map((_, i) => i));
    const byIndex: string[] = screens.map((screen) => screen.path);
    const listed = specRoutes();
    expect(byIndex.filter((p) => listed.includes(p))).toEqual(listed);
    expect(slideDirection(metaAt('/home'), metaAt('/user'))).toBe('left');
    expect(slideDirection(metaAt('/user'), metaAt('/home'))).toBe('right');
    expect(slideDirection(metaAt('/home'), metaAt('/home'))).toBe('none');
    expect(slideDirection(metaAt('/home'), metaAt('/nowhere'))).toBe('none');
  });

  it('keeps the tabs in route-index order, so moving right along the tab bar slides left', () => {
    for (let i = 1; i < TAB_PATHS.length; i++) {
      expect(slideDirection(metaAt(TAB_PATHS[i - 1]!), metaAt(TAB_PATHS[i]!))).toBe('left');
    }
  });
});

import { describe, expect, it } from 'vitest';
import {
  findRouteMeta,
  HOME_PATH,
  ROUTE_TABLE,
  slideDirection,
  TAB_PATHS,
} from '../../src/app/routes/route-table';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import zhCN from '../../locales/zh-CN';
import en from '../../locales/en';
import zhTW from '../../locales/zh-TW';
import th from '../../locales/th';
import vi from '../../locales/vi';

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

/** Screens the app adds to the spec's list: the trading calendar (getCalendar.do). */
const BEYOND_SPEC: readonly string[] = ['/calendar'];

describe('route table', () => {
  it('lists each path once', () => {
    const paths = ROUTE_TABLE.map((route) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('has the six tabs of spec §2, each showing the tab bar', () => {
    expect(TAB_PATHS).toEqual(['/home', '/trading-list', '/hk-list', '/warehouse', '/MyList', '/user']);
    for (const path of TAB_PATHS) expect(findRouteMeta(path)?.tabBar).toBe(true);
  });

  it('has every route of the spec §2 route list, spelt and cased as written, plus the tabs and the app’s own', () => {
    const paths = ROUTE_TABLE.map((route) => route.path as string);
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
    expect(findRouteMeta('/MyList')?.tabBar).toBe(true);
    expect(findRouteMeta('/mylist')?.tabBar).toBe(false);
    expect(findRouteMeta('/User')?.titleKey).toBe('personalCenter');
    expect(findRouteMeta('/user')?.titleKey).toBe('user');
    expect(findRouteMeta('/HOME')).toBeUndefined();
  });

  it('gives header actions only to headed routes, leading to routes that exist', () => {
    for (const route of ROUTE_TABLE) {
      if (!('action' in route)) continue;
      expect(route.header, route.path).not.toBe('none');
      expect(findRouteMeta(route.action.to), route.path).toBeDefined();
    }
  });

  it('ignores a trailing slash but not an unknown path', () => {
    expect(findRouteMeta('/home/')?.path).toBe('/home');
    expect(findRouteMeta('/no/such/page')).toBeUndefined();
    expect(HOME_PATH).toBe('/home');
  });

  it('has a translated title for every route in every locale', () => {
    for (const route of ROUTE_TABLE) {
      for (const dict of [zhCN, en, zhTW, th, vi])
        expect(dict.titles[route.titleKey], route.path).toBeTruthy();
    }
  });

  it('gives routes distinct indexes in table order, which decide the slide direction', () => {
    const indexes = ROUTE_TABLE.map((route) => findRouteMeta(route.path)!.index);
    expect(indexes).toEqual(ROUTE_TABLE.map((_, i) => i));
    expect(slideDirection('/home', '/user')).toBe('left');
    expect(slideDirection('/user', '/home')).toBe('right');
    expect(slideDirection('/home', '/home')).toBe('none');
    expect(slideDirection('/home', '/nowhere')).toBe('none');
  });

  it('has no route left "not built": every route of the table is a screen (router.tsx checks each has one)', () => {
    const source = readFileSync(
      path.resolve(import.meta.dirname, '../../src/app/routes/route-table.ts'),
      'utf8',
    );
    expect(source).not.toMatch(/notBuilt/);
    expect(ROUTE_TABLE.every((route) => !('notBuilt' in route))).toBe(true);
  });

  it('keeps the tabs in route-index order, so moving right along the tab bar slides left', () => {
    for (let i = 1; i < TAB_PATHS.length; i++) {
      expect(slideDirection(TAB_PATHS[i - 1]!, TAB_PATHS[i]!)).toBe('left');
    }
  });
});

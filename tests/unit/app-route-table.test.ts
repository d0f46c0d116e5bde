import { describe, expect, it } from 'vitest';
import {
  findRouteMeta,
  HOME_PATH,
  ROUTE_TABLE,
  slideDirection,
  TAB_PATHS,
} from '../../src/app/routes/route-table';
import zhCN from '../../locales/zh-CN';
import en from '../../locales/en';

describe('route table', () => {
  it('lists each path once', () => {
    const paths = ROUTE_TABLE.map((route) => route.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('has the six tabs of spec §2, each showing the tab bar', () => {
    expect(TAB_PATHS).toEqual(['/home', '/trading-list', '/hk-list', '/warehouse', '/MyList', '/user']);
    for (const path of TAB_PATHS) expect(findRouteMeta(path)?.tabBar).toBe(true);
  });

  it('matches case-sensitively: /MyList is a route, /mylist is not (yet)', () => {
    expect(findRouteMeta('/MyList')?.titleKey).toBe('myList');
    expect(findRouteMeta('/mylist')).toBeUndefined();
    expect(findRouteMeta('/User')).toBeUndefined();
    expect(findRouteMeta('/user')?.titleKey).toBe('user');
  });

  it('ignores a trailing slash but not an unknown path', () => {
    expect(findRouteMeta('/home/')?.path).toBe('/home');
    expect(findRouteMeta('/no/such/page')).toBeUndefined();
    expect(HOME_PATH).toBe('/home');
  });

  it('has a translated title for every route in every locale', () => {
    for (const route of ROUTE_TABLE) {
      expect(zhCN.titles[route.titleKey], route.path).toBeTruthy();
      expect(en.titles[route.titleKey], route.path).toBeTruthy();
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

  it('marks the screens that need a session and the one not built yet', () => {
    const needsSession = ROUTE_TABLE.filter((route) => route.requireAuth).map((route) => route.path);
    expect(needsSession).toEqual(['/warehouse', '/buy', '/FundingDetails']);
    expect(ROUTE_TABLE.filter((route) => 'notBuilt' in route && route.notBuilt).map((r) => r.path)).toEqual([
      '/MyList',
    ]);
  });
});

/**
 * The reading side's routes (spec §2 "Route list"): news, notices, the college, site pages, about and
 * customer service. Screens are code-split like the others; only the search-parameter readers load with the
 * shell.
 */
import { createRoute, lazyRouteComponent, type StaticDataRouteOption } from '@tanstack/react-router';
import type { AppRootRoute } from '../route-tree';
import { ART_CATEGORIES, NEWS_TYPES, type ArtCategory, type NewsType } from '../../../shared/content';
import { screen } from '../route-meta';

const str = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** `?id=` as a positive whole number, else nothing (a list instead of one item). */
function idOf(search: Record<string, unknown>): { id?: number } {
  const id = Number(str(search.id));
  return Number.isSafeInteger(id) && id > 0 ? { id } : {};
}

/** A stock's own news item (getStockNews.do): `<code>-<yyyymmdd>-<kind>`. */
const STOCK_NEWS_ID = /^[A-Z0-9]{1,10}-\d{8}-[a-z]{1,10}$/;

export const newsSearch = (
  search: Record<string, unknown>,
): { id?: number; type?: NewsType; stock?: string } => {
  const type = str(search.type) as NewsType;
  const stock = str(search.stock);
  return {
    ...idOf(search),
    ...(NEWS_TYPES.includes(type) ? { type } : {}),
    ...(STOCK_NEWS_ID.test(stock) ? { stock } : {}),
  };
};

export const noticeSearch = (search: Record<string, unknown>): { id?: number } => idOf(search);

export const collegeSearch = (
  search: Record<string, unknown>,
): { id?: number; cat?: ArtCategory; doc?: 'newbie' } => {
  const cat = str(search.cat) as ArtCategory;
  return {
    ...idOf(search),
    ...(ART_CATEGORIES.includes(cat) ? { cat } : {}),
    ...(str(search.doc) === 'newbie' ? { doc: 'newbie' as const } : {}),
  };
};

export function contentRoutes(root: AppRootRoute) {
  const page = <P extends string>(
    path: P,
    name: 'PrivacyScreen' | 'AgreementScreen' | 'RulesScreen',
    staticData: StaticDataRouteOption,
  ) =>
    createRoute({
      getParentRoute: () => root,
      path,
      staticData,
      component: lazyRouteComponent(() => import('./SitePageScreen'), name),
    });
  return [
    createRoute({
      getParentRoute: () => root,
      path: '/newPage',
      staticData: screen(15, 'news', 'public'),
      validateSearch: newsSearch,
      component: lazyRouteComponent(() => import('./NewsScreen'), 'NewsScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/newGg',
      staticData: screen(16, 'notices', 'public'),
      validateSearch: noticeSearch,
      component: lazyRouteComponent(() => import('./NoticeScreen'), 'NoticeScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/college',
      staticData: screen(2, 'college', 'public'),
      validateSearch: collegeSearch,
      component: lazyRouteComponent(() => import('./CollegeScreen'), 'CollegeScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/about',
      staticData: screen(13, 'about', 'public'),
      component: lazyRouteComponent(() => import('./AboutScreen'), 'AboutScreen'),
    }),
    page('/agree', 'PrivacyScreen', screen(50, 'privacyPolicy', 'public')),
    page('/aggre', 'AgreementScreen', screen(43, 'userAgreement', 'public')),
    page('/trade', 'RulesScreen', screen(51, 'tradingRules', 'public')),
    createRoute({
      getParentRoute: () => root,
      path: '/service',
      staticData: screen(72, 'customerService', 'public'),
      component: lazyRouteComponent(() => import('./ServiceScreen'), 'ServiceScreen'),
    }),
  ] as const;
}

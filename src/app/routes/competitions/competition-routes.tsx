/**
 * The trading competitions' routes, the app's own beyond the spec's route list: the public list (upcoming,
 * running, ended), a competition's detail (rules, leaderboard, join), the user's own competitions, and the
 * create and edit forms. Screens are code-split; only the search readers load with the shell.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { AppRootRoute } from '../route-tree';
import { screen } from '../route-meta';
import { prefetch } from '../route-prefetch';
import { positiveIdSearch } from '../../forms/search-params';
import type { CompetitionState } from '../../../shared/api/competitions';

const STATES: readonly string[] = ['upcoming', 'running', 'ended'];

/** `?state=` of /competitions: one of the list's tabs, else the first. */
export function competitionStateSearch(search: Record<string, unknown>): { state?: CompetitionState } {
  return typeof search.state === 'string' && STATES.includes(search.state)
    ? { state: search.state as CompetitionState }
    : {};
}

export function competitionRoutes(root: AppRootRoute) {
  const forms = () => import('./CompetitionFormScreens');
  return [
    createRoute({
      getParentRoute: () => root,
      path: '/competitions',
      staticData: screen(89, 'competitions', 'public', { action: { icon: 'more', to: '/myCompetitions' } }),
      validateSearch: competitionStateSearch,
      component: lazyRouteComponent(() => import('./CompetitionsScreen'), 'CompetitionsScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/competition',
      staticData: screen(90, 'competition', 'public'),
      validateSearch: positiveIdSearch,
      loaderDeps: ({ search }) => ({ id: search.id }),
      loader: ({ context, deps }) => prefetch(context, 'competition', deps),
      component: lazyRouteComponent(() => import('./CompetitionScreen'), 'CompetitionScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/myCompetitions',
      staticData: screen(91, 'myCompetitions', 'session'),
      component: lazyRouteComponent(() => import('./MyCompetitionsScreen'), 'MyCompetitionsScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/competitionCreate',
      staticData: screen(92, 'competitionCreate', 'session'),
      component: lazyRouteComponent(forms, 'CompetitionCreateScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/competitionEdit',
      staticData: screen(93, 'competitionEdit', 'session'),
      validateSearch: positiveIdSearch,
      component: lazyRouteComponent(forms, 'CompetitionEditScreen'),
    }),
  ];
}

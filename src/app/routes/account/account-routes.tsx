/**
 * The account side's routes (spec §2 "Route list"): the personal centre's other paths, messages, KYC, the
 * bank card, passwords, settings and sign-in helpers. Screens are code-split; only the search readers load
 * with the shell.
 */
import { createRoute, lazyRouteComponent, type AnyRoute } from '@tanstack/react-router';
import type { AppPath } from '../route-table';
import { positiveIdSearch } from '../../forms/search-params';

/** Paths these routes serve (router.tsx checks that the route table's every path has a route). */
export const ACCOUNT_PATHS = [
  '/User',
  '/account',
  '/notify',
  '/alertdetail',
  '/authentication',
  '/authentications',
  '/smrz',
  '/bankCard',
  '/card',
  '/addCard',
  '/bankUpDate',
  '/forget',
  '/openaccount',
  '/setting',
  '/setup',
  '/loginPassword',
  '/setPassword',
] as const satisfies readonly AppPath[];

export function accountRoutes<R extends AnyRoute>(root: R) {
  const user = () => import('./UserScreen');
  const kyc = () => import('./KycScreen');
  const bank = () => import('./BankCardScreens');
  const security = () => import('./SecurityScreens');
  const settings = () => import('./SettingsScreen');
  return [
    createRoute({
      getParentRoute: () => root,
      path: '/User',
      component: lazyRouteComponent(user, 'UserScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/account',
      component: lazyRouteComponent(user, 'UserScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/notify',
      component: lazyRouteComponent(() => import('./MessagesScreen'), 'MessagesScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/alertdetail',
      validateSearch: positiveIdSearch,
      component: lazyRouteComponent(() => import('./MessagesScreen'), 'MessageDetailScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/authentication',
      component: lazyRouteComponent(kyc, 'KycScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/authentications',
      component: lazyRouteComponent(kyc, 'KycScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/smrz',
      component: lazyRouteComponent(kyc, 'KycScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/bankCard',
      component: lazyRouteComponent(bank, 'BankCardScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/card',
      component: lazyRouteComponent(bank, 'BankCardScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/addCard',
      component: lazyRouteComponent(bank, 'AddCardScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/bankUpDate',
      component: lazyRouteComponent(bank, 'UpdateCardScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/forget',
      component: lazyRouteComponent(() => import('./ForgetScreen'), 'ForgetScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/openaccount',
      component: lazyRouteComponent(security, 'OpenAccountScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/setting',
      component: lazyRouteComponent(settings, 'SettingsScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/setup',
      component: lazyRouteComponent(settings, 'SettingsScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/loginPassword',
      component: lazyRouteComponent(security, 'LoginPasswordScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/setPassword',
      component: lazyRouteComponent(security, 'WithdrawPasswordScreen'),
    }),
  ];
}

/**
 * The account side's routes (spec §2 "Route list"): the personal centre's other paths, messages, KYC, the
 * bank card, passwords, settings and sign-in helpers. Screens are code-split; only the search readers load
 * with the shell.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { AppRootRoute } from '../route-tree';
import { screen } from '../route-meta';
import { positiveIdSearch } from '../../forms/search-params';

export function accountRoutes(root: AppRootRoute) {
  const user = () => import('./UserScreen');
  const kyc = () => import('./KycScreen');
  const bank = () => import('./BankCardScreens');
  const security = () => import('./SecurityScreens');
  const settings = () => import('./SettingsScreen');
  return [
    createRoute({
      getParentRoute: () => root,
      path: '/User',
      staticData: screen(62, 'personalCenter', 'session'),
      component: lazyRouteComponent(user, 'UserScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/account',
      staticData: screen(65, 'account', 'session'),
      component: lazyRouteComponent(user, 'UserScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/notify',
      staticData: screen(56, 'notifications', 'session'),
      component: lazyRouteComponent(() => import('./MessagesScreen'), 'MessagesScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/alertdetail',
      staticData: screen(52, 'messageDetail', 'session'),
      validateSearch: positiveIdSearch,
      component: lazyRouteComponent(() => import('./MessagesScreen'), 'MessageDetailScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/authentication',
      staticData: screen(42, 'kyc', 'session'),
      component: lazyRouteComponent(kyc, 'KycScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/authentications',
      staticData: screen(70, 'kyc', 'session'),
      component: lazyRouteComponent(kyc, 'KycScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/smrz',
      staticData: screen(83, 'kyc', 'session'),
      component: lazyRouteComponent(kyc, 'KycScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/bankCard',
      staticData: screen(71, 'bankCard', 'session'),
      component: lazyRouteComponent(bank, 'BankCardScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/card',
      staticData: screen(41, 'bankCard', 'session'),
      component: lazyRouteComponent(bank, 'BankCardScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/addCard',
      staticData: screen(47, 'addBankCard', 'session'),
      component: lazyRouteComponent(bank, 'AddCardScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/bankUpDate',
      staticData: screen(84, 'updateBankCard', 'session'),
      component: lazyRouteComponent(bank, 'UpdateCardScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/forget',
      staticData: screen(17, 'forgotPassword', 'public'),
      component: lazyRouteComponent(() => import('./ForgetScreen'), 'ForgetScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/openaccount',
      staticData: screen(18, 'openAccount', 'session'),
      component: lazyRouteComponent(security, 'OpenAccountScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/setting',
      staticData: screen(49, 'settings', 'public'),
      component: lazyRouteComponent(settings, 'SettingsScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/setup',
      staticData: screen(80, 'settings', 'public'),
      component: lazyRouteComponent(settings, 'SettingsScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/loginPassword',
      staticData: screen(77, 'loginPassword', 'session'),
      component: lazyRouteComponent(security, 'LoginPasswordScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/setPassword',
      staticData: screen(78, 'withdrawPassword', 'session'),
      component: lazyRouteComponent(security, 'WithdrawPasswordScreen'),
    }),
  ];
}

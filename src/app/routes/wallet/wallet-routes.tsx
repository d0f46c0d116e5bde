/**
 * The wallet's routes (spec §2 "Route list"): deposit, withdrawal, transfer, exchange and their records.
 * /FundingDetails keeps its own route in router.tsx. Screens are code-split; only the search readers load
 * with the shell.
 */
import { createRoute, lazyRouteComponent, type AnyRoute } from '@tanstack/react-router';
import type { AppPath } from '../route-table';
import { positiveIdSearch } from '../../forms/search-params';

/** Paths these routes serve (router.tsx checks that the route table's every path has a route). */
export const WALLET_PATHS = [
  '/wallet',
  '/recharge',
  '/rechargeSure',
  '/zf',
  '/rechargelist',
  '/btc',
  '/withdraw',
  '/cash',
  '/cashlist',
  '/cashWithdrawalRecord',
  '/transfer',
  '/transfers',
  '/transferRecord',
  '/exchange',
  '/exchangeLog',
] as const satisfies readonly AppPath[];

/** `?channelId=` of /recharge (from /btc). */
export function channelSearch(search: Record<string, unknown>): { channelId?: number } {
  const { id } = positiveIdSearch({ id: search.channelId });
  return id ? { channelId: id } : {};
}

/** `?channelId=&amount=` of /rechargeSure: a positive amount with at most 2 decimals. */
export function rechargeSureSearch(search: Record<string, unknown>): { channelId?: number; amount?: number } {
  const amount = Number(typeof search.amount === 'string' ? search.amount.trim() : search.amount);
  const valid =
    Number.isFinite(amount) && amount > 0 && Math.abs(amount * 100 - Math.round(amount * 100)) < 1e-6;
  return { ...channelSearch(search), ...(valid ? { amount } : {}) };
}

export function walletRoutes<R extends AnyRoute>(root: R) {
  const recharge = () => import('./RechargeScreens');
  const withdraw = () => import('./WithdrawScreens');
  const transfer = () => import('./TransferScreens');
  const exchange = () => import('./ExchangeScreens');
  return [
    createRoute({
      getParentRoute: () => root,
      path: '/wallet',
      component: lazyRouteComponent(() => import('./WalletScreen'), 'WalletScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/recharge',
      validateSearch: channelSearch,
      component: lazyRouteComponent(recharge, 'RechargeScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/rechargeSure',
      validateSearch: rechargeSureSearch,
      component: lazyRouteComponent(recharge, 'RechargeConfirmScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/zf',
      validateSearch: positiveIdSearch,
      component: lazyRouteComponent(recharge, 'PaymentScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/rechargelist',
      component: lazyRouteComponent(recharge, 'RechargeRecordsScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/btc',
      component: lazyRouteComponent(recharge, 'CryptoDepositScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/withdraw',
      component: lazyRouteComponent(withdraw, 'WithdrawScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/cash',
      component: lazyRouteComponent(withdraw, 'WithdrawScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/cashlist',
      component: lazyRouteComponent(withdraw, 'WithdrawRecordsScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/cashWithdrawalRecord',
      component: lazyRouteComponent(withdraw, 'WithdrawRecordsScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/transfer',
      component: lazyRouteComponent(transfer, 'TransferScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/transfers',
      component: lazyRouteComponent(transfer, 'TransferScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/transferRecord',
      component: lazyRouteComponent(transfer, 'TransferRecordsScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/exchange',
      component: lazyRouteComponent(exchange, 'ExchangeScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/exchangeLog',
      component: lazyRouteComponent(exchange, 'ExchangeLogScreen'),
    }),
  ];
}

/**
 * The wallet's routes (spec §2 "Route list"): deposit, withdrawal, transfer, exchange and their records.
 * /FundingDetails keeps its own route in router.tsx. Screens are code-split; only the search readers load
 * with the shell.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import type { AppRootRoute } from '../route-tree';
import { screen } from '../route-meta';
import { prefetch } from '../route-prefetch';
import { positiveIdSearch } from '../../forms/search-params';

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

export function walletRoutes(root: AppRootRoute) {
  const recharge = () => import('./RechargeScreens');
  const withdraw = () => import('./WithdrawScreens');
  const transfer = () => import('./TransferScreens');
  const exchange = () => import('./ExchangeScreens');
  return [
    createRoute({
      getParentRoute: () => root,
      path: '/wallet',
      staticData: screen(66, 'wallet', 'public'),
      loader: ({ context }) => prefetch(context, 'wallet', undefined),
      component: lazyRouteComponent(() => import('./WalletScreen'), 'WalletScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/recharge',
      staticData: screen(73, 'recharge', 'public', { action: { icon: 'more', to: '/rechargelist' } }),
      validateSearch: channelSearch,
      loader: ({ context }) => prefetch(context, 'recharge', undefined),
      component: lazyRouteComponent(recharge, 'RechargeScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/rechargeSure',
      staticData: screen(44, 'rechargeConfirm', 'session'),
      validateSearch: rechargeSureSearch,
      component: lazyRouteComponent(recharge, 'RechargeConfirmScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/zf',
      staticData: screen(75, 'payment', 'session'),
      validateSearch: positiveIdSearch,
      component: lazyRouteComponent(recharge, 'PaymentScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/rechargelist',
      staticData: screen(45, 'rechargeRecords', 'session'),
      component: lazyRouteComponent(recharge, 'RechargeRecordsScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/btc',
      staticData: screen(76, 'cryptoDeposit', 'session'),
      component: lazyRouteComponent(recharge, 'CryptoDepositScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/withdraw',
      staticData: screen(74, 'withdraw', 'public', { action: { icon: 'more', to: '/cashWithdrawalRecord' } }),
      loader: ({ context }) => prefetch(context, 'withdraw', undefined),
      component: lazyRouteComponent(withdraw, 'WithdrawScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/cash',
      staticData: screen(46, 'withdraw', 'session', { action: { icon: 'more', to: '/cashlist' } }),
      loader: ({ context }) => prefetch(context, 'withdraw', undefined),
      component: lazyRouteComponent(withdraw, 'WithdrawScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/cashlist',
      staticData: screen(48, 'withdrawRecords', 'session'),
      component: lazyRouteComponent(withdraw, 'WithdrawRecordsScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/cashWithdrawalRecord',
      staticData: screen(68, 'withdrawRecords', 'session'),
      component: lazyRouteComponent(withdraw, 'WithdrawRecordsScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/transfer',
      staticData: screen(34, 'transfer', 'session', { action: { icon: 'more', to: '/transferRecord' } }),
      loader: ({ context }) => prefetch(context, 'transfer', undefined),
      component: lazyRouteComponent(transfer, 'TransferScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/transfers',
      staticData: screen(69, 'transfer', 'session'),
      loader: ({ context }) => prefetch(context, 'transfer', undefined),
      component: lazyRouteComponent(transfer, 'TransferScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/transferRecord',
      staticData: screen(67, 'transferRecords', 'session'),
      component: lazyRouteComponent(transfer, 'TransferRecordsScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/exchange',
      staticData: screen(63, 'exchange', 'public', { action: { icon: 'more', to: '/exchangeLog' } }),
      loader: ({ context }) => prefetch(context, 'exchange', undefined),
      component: lazyRouteComponent(exchange, 'ExchangeScreen'),
    }),
    createRoute({
      getParentRoute: () => root,
      path: '/exchangeLog',
      staticData: screen(64, 'exchangeRecords', 'session'),
      component: lazyRouteComponent(exchange, 'ExchangeLogScreen'),
    }),
  ];
}

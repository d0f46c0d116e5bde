import { observable } from '@legendapp/state';
import type { AppPath } from '../routes/route-meta';

/**
 * spec §3 shared client state that is not the session, theme or language: the selected tab path (it
 * follows the route; RootLayout writes it) and the bound bank card's details, which the wallet screens
 * fill once they are built (spec §3 "bank info (bankNo)"). Neither is persisted: both are re-read.
 */
export interface BankInfo {
  /** The card number as the station shows it (masked). */
  bankNo: string;
  bankName: string;
  branch: string;
}

/**
 * The bottom tab bar's six areas, in order (spec §2); each is a route of the tree (and shows the tab bar:
 * tests/unit/app-route-table.test.ts).
 */
export const TAB_PATHS = [
  '/home',
  '/trading-list',
  '/hk-list',
  '/warehouse',
  '/MyList',
  '/user',
] as const satisfies readonly AppPath[];

export type TabPath = (typeof TAB_PATHS)[number];

export const selectedTab$ = observable<TabPath>('/home');
export const bankInfo$ = observable<BankInfo | null>(null);

/** The tab a pathname belongs to, or null for a screen outside the tab bar (the tab stays as it was). */
export function tabOf(pathname: string): TabPath | null {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (TAB_PATHS as readonly string[]).includes(trimmed) ? (trimmed as TabPath) : null;
}

export function followPath(pathname: string): void {
  const tab = tabOf(pathname);
  if (tab) selectedTab$.set(tab);
}

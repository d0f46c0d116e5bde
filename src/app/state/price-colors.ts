import { observable } from '@legendapp/state';
import type { Locales } from '../../../locales/i18n-types';
import { persistLocally } from './persist';

/**
 * The up/down colour convention: 'red-up' as on Chinese exchanges (red rises, green falls) or
 * 'green-up' as on most other markets. null: not chosen yet, follow the language.
 */
export type PriceColorConvention = 'red-up' | 'green-up';

export const priceColors$ = observable<PriceColorConvention | null>(null);
persistLocally(priceColors$, 'priceColors');

/** The convention in force: the user's choice, else red-up in Chinese and green-up elsewhere. */
export function effectivePriceColors(
  choice: PriceColorConvention | null,
  locale: Locales | string,
): PriceColorConvention {
  if (choice === 'red-up' || choice === 'green-up') return choice;
  return locale.startsWith('zh') ? 'red-up' : 'green-up';
}

export function setPriceColors(convention: PriceColorConvention): void {
  priceColors$.set(convention);
}

import { observable } from '@legendapp/state';
import type { Locales } from '../../../locales/i18n-types';
import { baseLocale } from '../../../locales/i18n-util';
import { persistLocally } from './persist';

/**
 * The language the user chose (spec §1: zh-CN default). Only ever set to a locale whose dictionary is
 * already loaded: switchLocale in src/app/i18n loads it first.
 */
export const locale$ = observable<Locales>(baseLocale);
persistLocally(locale$, 'lang');

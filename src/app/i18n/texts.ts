/**
 * Loading a language's dictionary in its two parts (scripts/i18n-split.ts): the first screen's groups, then
 * the rest when another screen is opened (the root route waits for it) or the language is switched.
 *
 * typesafe-i18n's translation object copies the dictionary's top-level groups when it is made and reads
 * inside a group when a text is asked for. So the first part puts an empty object for every later group,
 * and the later part fills those same objects: a translation object made before it arrived reads the full
 * texts afterwards (a later group read too early gives "" rather than a crash; the shell reads none,
 * which tests/unit/app-first-texts.test.ts checks).
 */
import type { Locales, Translations } from '../../../locales/i18n-types';
import { initFormatters } from '../../../locales/formatters';
import { loadedFormatters, loadedLocales } from '../../../locales/i18n-util';
import { observable } from '@legendapp/state';

type Part = { texts: Record<string, unknown>; laterGroups?: readonly string[] };

const FIRST: Record<Locales, () => Promise<Part>> = {
  en: () => import('./generated/en.first'),
  th: () => import('./generated/th.first'),
  vi: () => import('./generated/vi.first'),
  'zh-CN': () => import('./generated/zh-CN.first'),
  'zh-TW': () => import('./generated/zh-TW.first'),
};

const LATER: Record<Locales, () => Promise<Part>> = {
  en: () => import('./generated/en.later'),
  th: () => import('./generated/th.later'),
  vi: () => import('./generated/vi.later'),
  'zh-CN': () => import('./generated/zh-CN.later'),
  'zh-TW': () => import('./generated/zh-TW.later'),
};

const firstLoads = new Map<Locales, Promise<void>>();
const fullLoads = new Map<Locales, Promise<void>>();

/** The languages whose whole dictionary is in (the shell refreshes its texts when one arrives). */
export const completeLocales$ = observable<Locales[]>([]);

/** The first screen's texts of `locale` and its number formatters; once per language. */
export function loadFirstTexts(locale: Locales): Promise<void> {
  let loading = firstLoads.get(locale);
  if (!loading) {
    loading = FIRST[locale]().then(({ texts, laterGroups = [] }) => {
      const dictionary: Record<string, unknown> = { ...texts };
      for (const group of laterGroups) dictionary[group] = {};
      loadedLocales[locale] = dictionary as unknown as Translations;
      loadedFormatters[locale] = initFormatters(locale);
    });
    // A failed load (offline before the worker cached it) may be tried again.
    loading.catch(() => firstLoads.delete(locale));
    firstLoads.set(locale, loading);
  }
  return loading;
}

/** Every text of `locale`: the first part, then the later groups filled into their placeholders. */
export function loadAllTexts(locale: Locales): Promise<void> {
  let loading = fullLoads.get(locale);
  if (!loading) {
    loading = Promise.all([loadFirstTexts(locale), LATER[locale]()]).then(([, later]) => {
      const dictionary = loadedLocales[locale] as unknown as Record<string, Record<string, unknown>>;
      for (const [group, texts] of Object.entries(later.texts)) {
        dictionary[group] = Object.assign(dictionary[group] ?? {}, texts);
      }
      if (!completeLocales$.peek().includes(locale))
        completeLocales$.set([...completeLocales$.peek(), locale]);
    });
    loading.catch(() => fullLoads.delete(locale));
    fullLoads.set(locale, loading);
  }
  return loading;
}

import type { Locales, TranslationFunctions } from '../../../locales/i18n-types';
import { loadLocaleAsync } from '../../../locales/i18n-util.async';
import { baseLocale, i18nObject, isLocale } from '../../../locales/i18n-util';
import { locale$ } from '../state/locale';

/** The `?lang=` parameter names the language on any URL (ARCHITECTURE "Settings"). */
export const LANG_PARAM = 'lang';

/**
 * The language to start in: `?lang=` when it names a known locale, else the stored choice, else zh-CN.
 * Unknown values (a language a later version adds) are ignored rather than guessed.
 */
export function resolveStartLocale(search: string, stored: string | null | undefined): Locales {
  const requested = new URLSearchParams(search).get(LANG_PARAM);
  if (requested && isLocale(requested)) return requested;
  if (stored && isLocale(stored)) return stored;
  return baseLocale;
}

/** Loads only this locale's dictionary (async loader), then makes it current and stores it. */
export async function switchLocale(locale: Locales): Promise<void> {
  await loadLocaleAsync(locale);
  locale$.set(locale);
}

/** The current translation functions, for code outside React (the API client's local messages). */
export function currentTranslations(): TranslationFunctions {
  return i18nObject(locale$.peek());
}

export function currentLocale(): Locales {
  return locale$.peek();
}

import type { Locales, TranslationFunctions } from '../../../locales/i18n-types';
import { baseLocale, i18nObject, isLocale } from '../../../locales/i18n-util';
import { locale$ } from '../state/locale';
import { loadAllTexts, loadFirstTexts } from './texts';

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

/**
 * The language being started in or switched to: the first screen's route may ask for its texts before
 * locale$ (set once they are in) names it.
 */
let comingLocale: Locales | null = null;

/**
 * The language to start in, with the first screen's texts only (the rest comes with the first other screen:
 * the root route waits for it); makes it current and stores it.
 */
export async function startLocale(locale: Locales): Promise<void> {
  comingLocale = locale;
  await loadFirstTexts(locale);
  locale$.set(locale);
}

/** A switch of language: loads that language's whole dictionary (only it), then makes it current and stores it. */
export async function switchLocale(locale: Locales): Promise<void> {
  comingLocale = locale;
  try {
    await loadAllTexts(locale);
  } catch (error) {
    // Not switched (offline before that language was stored): the screens stay in the current one.
    comingLocale = locale$.peek();
    throw error;
  }
  locale$.set(locale);
}

/** Whatever the current screen, the whole dictionary of the current language (the root route's wait). */
export function loadCurrentTexts(): Promise<void> {
  return loadAllTexts(comingLocale ?? locale$.peek());
}

/** The current translation functions, for code outside React (the API client's local messages). */
export function currentTranslations(): TranslationFunctions {
  return i18nObject(locale$.peek());
}

export function currentLocale(): Locales {
  return locale$.peek();
}

import type { FormattersInitializer } from 'typesafe-i18n';
import type { Locales, Formatters } from './i18n-types.js';

/** typesafe-i18n formatters; none yet: numbers and times are formatted by src/shared/format.ts. */
export const initFormatters: FormattersInitializer<Locales, Formatters> = (_locale: Locales) => {
  const formatters: Formatters = {};
  return formatters;
};

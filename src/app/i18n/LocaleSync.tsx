import { useEffect } from 'react';
import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../locales/i18n-react';
import { locale$ } from '../state/locale';

/**
 * typesafe-i18n's provider takes its locale once, as an initial prop; this keeps it in step with the
 * stored language after a switch (the dictionary is loaded before locale$ changes), and <html lang> with it.
 */
export function LocaleSync() {
  const wanted = useSelector(locale$);
  const { locale, setLocale } = useI18nContext();
  useEffect(() => {
    if (wanted !== locale) setLocale(wanted);
    document.documentElement.lang = wanted;
  }, [wanted, locale, setLocale]);
  return null;
}

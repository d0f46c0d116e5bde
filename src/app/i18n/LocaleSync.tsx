import { useEffect } from 'react';
import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../locales/i18n-react';
import { locale$ } from '../state/locale';
import { completeLocales$ } from './texts';

/**
 * typesafe-i18n's provider takes its locale once, as an initial prop; this keeps it in step with the
 * stored language after a switch (the dictionary is loaded before locale$ changes), and <html lang> with it.
 * When the rest of the current language's dictionary arrives (texts.ts), the translations are made again so
 * that every screen showing them renders with the full texts.
 */
export function LocaleSync() {
  const wanted = useSelector(locale$);
  const complete = useSelector(() => completeLocales$.get().includes(wanted));
  const { locale, setLocale } = useI18nContext();
  useEffect(() => {
    if (wanted !== locale || complete) setLocale(wanted);
    document.documentElement.lang = wanted;
  }, [wanted, locale, setLocale, complete]);
  return null;
}

import { useSelector } from '@legendapp/state/react';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { Locales, Translation } from '../../../../locales/i18n-types';
import { isLocale, locales } from '../../../../locales/i18n-util';
import { switchLocale } from '../../i18n/locale';
import { setTheme, theme$, type ThemeName } from '../../state/theme';
import {
  effectivePriceColors,
  priceColors$,
  setPriceColors,
  type PriceColorConvention,
} from '../../state/price-colors';

/** Each language by its own name; a locale added to typesafe-i18n must be named here too. */
const LANGUAGE_NAME_KEYS: Record<Locales, keyof Translation['language']> = {
  'zh-CN': 'zhCN',
  en: 'en',
  'zh-TW': 'zhTW',
  th: 'th',
  vi: 'vi',
};

/** Theme, up/down colours and language: on /user and on the settings screens. */
export function PreferencesPanel() {
  const { LL, locale } = useI18nContext();
  const theme = useSelector(theme$);
  const themes: readonly { name: ThemeName; label: string }[] = [
    { name: 'red', label: LL.user.themeRed() },
    { name: 'black', label: LL.user.themeBlack() },
  ];
  const convention = effectivePriceColors(useSelector(priceColors$), locale);
  const conventions: readonly { name: PriceColorConvention; label: string }[] = [
    { name: 'red-up', label: LL.user.redUp() },
    { name: 'green-up', label: LL.user.greenUp() },
  ];
  return (
    <section aria-labelledby="settings-title" className="settings">
      <h2 id="settings-title" className="section-title">
        {LL.user.settings()}
      </h2>
      <div className="setting-row">
        <span id="theme-label">{LL.user.theme()}</span>
        <div className="segment-tabs small" role="radiogroup" aria-labelledby="theme-label">
          {themes.map((option) => (
            <button
              key={option.name}
              type="button"
              role="radio"
              aria-checked={theme === option.name}
              className={theme === option.name ? 'segment selected' : 'segment'}
              data-testid={`theme-${option.name}`}
              onClick={() => setTheme(option.name)}
            >
              {option.label}
            </button>
          ))}
        </div>
      </div>
      <div className="setting-row">
        <span id="price-colors-label">{LL.user.colorConvention()}</span>
        <div className="segment-tabs small" role="radiogroup" aria-labelledby="price-colors-label">
          {conventions.map((option) => (
            <button
              key={option.name}
              type="button"
              role="radio"
              aria-checked={convention === option.name}
              className={convention === option.name ? 'segment selected' : 'segment'}
              data-testid={`price-colors-${option.name}`}
              onClick={() => setPriceColors(option.name)}
            >
              {option.label}
            </button>
          ))}
        </div>
      </div>
      <div className="setting-row">
        <label htmlFor="language-select">{LL.user.language()}</label>
        <select
          id="language-select"
          data-testid="language-select"
          value={locale}
          onChange={(event) => {
            if (isLocale(event.target.value)) void switchLocale(event.target.value);
          }}
        >
          {locales.map((choice) => (
            // Each language is named in itself (简体中文, English, ไทย), and marked so.
            <option key={choice} value={choice} lang={choice}>
              {LL.language[LANGUAGE_NAME_KEYS[choice]]()}
            </option>
          ))}
        </select>
      </div>
    </section>
  );
}

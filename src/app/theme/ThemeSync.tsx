import { useEffect } from 'react';
import { useSelector } from '@legendapp/state/react';
import { locale$ } from '../state/locale';
import { effectivePriceColors, priceColors$ } from '../state/price-colors';
import { theme$ } from '../state/theme';
import { applyTheme } from './themes';

/** Keeps the CSS custom properties on <html> in step with the chosen theme and up/down colours. */
export function ThemeSync() {
  const theme = useSelector(theme$);
  const convention = useSelector(() => effectivePriceColors(priceColors$.get(), locale$.get()));
  useEffect(() => applyTheme(theme, convention), [theme, convention]);
  return null;
}

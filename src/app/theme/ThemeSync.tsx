import { useEffect } from 'react';
import { useSelector } from '@legendapp/state/react';
import { theme$ } from '../state/theme';
import { applyTheme } from './themes';

/** Keeps the CSS custom properties on <html> in step with the chosen theme. */
export function ThemeSync() {
  const theme = useSelector(theme$);
  useEffect(() => applyTheme(theme), [theme]);
  return null;
}

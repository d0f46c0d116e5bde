import type { PriceColorConvention } from '../state/price-colors';
import type { ThemeName } from '../state/theme';
import { paletteFor } from './palettes';

export { PALETTES, paletteFor, type Palette } from './palettes';

/** A palette key as the custom property applyTheme writes (`headerBg` → `--header-bg`). */
export const toCssName = (key: string) => `--${key.replace(/[A-Z0-9]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Writes the palette onto <html> and the browser's theme colour. */
export function applyTheme(
  theme: ThemeName,
  convention: PriceColorConvention = 'red-up',
  root: HTMLElement = document.documentElement,
): void {
  const palette = paletteFor(theme, convention);
  for (const [key, value] of Object.entries(palette)) root.style.setProperty(toCssName(key), value);
  root.dataset.theme = theme;
  root.dataset.priceColors = convention;
  root.style.colorScheme = theme === 'black' ? 'dark' : 'light';
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', palette.headerBg);
}

import { describe, expect, it } from 'vitest';
import { PALETTES, paletteFor, type Palette } from '../../src/app/theme/palettes';
import { effectivePriceColors } from '../../src/app/state/price-colors';

/** WCAG 2 relative luminance of #rrggbb. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** Text colour → the backgrounds it is drawn on in the app. */
const PAIRS: readonly [keyof Palette, keyof Palette][] = [
  ['text', 'bg'],
  ['text', 'surface'],
  ['text', 'surface2'],
  ['text2', 'bg'],
  ['text2', 'surface'],
  ['up', 'surface'],
  ['down', 'surface'],
  ['up', 'bg'],
  ['down', 'bg'],
  ['flat', 'surface'],
  ['danger', 'surface'],
  ['danger', 'bg'],
  ['accent', 'surface'],
  ['accentText', 'accent'],
  ['headerText', 'headerBg'],
  ['noticeText', 'noticeBg'],
  ['onMove', 'up'],
  ['onMove', 'down'],
  ['onMove', 'flat'],
  ['success', 'surface'],
  ['success', 'bg'],
  ['onStatus', 'success'],
  ['onStatus', 'danger'],
  ['onStatus', 'badge'],
];

describe('themes', () => {
  it('keeps every text colour at WCAG AA (4.5:1) on its background, in both themes', () => {
    const low: string[] = [];
    for (const theme of ['red', 'black'] as const) {
      for (const convention of ['red-up', 'green-up'] as const) {
        const palette = paletteFor(theme, convention);
        for (const [fg, bg] of PAIRS) {
          const ratio = contrast(palette[fg], palette[bg]);
          if (ratio < 4.5) low.push(`${theme}/${convention} ${fg} on ${bg}: ${ratio.toFixed(2)}`);
        }
      }
    }
    expect(low).toEqual([]);
  });

  it('swaps the up and down colours for the green-up convention and keeps the rest', () => {
    const red = PALETTES.red;
    const swapped = paletteFor('red', 'green-up');
    expect(swapped.up).toBe(red.down);
    expect(swapped.down).toBe(red.up);
    expect({ ...swapped, up: red.up, down: red.down }).toEqual(red);
    expect(paletteFor('black', 'red-up')).toEqual(PALETTES.black);
  });

  it('keeps status colours apart from the up/down palette: success green, danger and badge red, either way', () => {
    for (const theme of ['red', 'black'] as const) {
      const redUp = paletteFor(theme, 'red-up');
      const greenUp = paletteFor(theme, 'green-up');
      for (const key of ['success', 'danger', 'badge', 'onStatus'] as const)
        expect(greenUp[key]).toBe(redUp[key]);
      // Green-up: "up" is green, yet a verified status stays green and the unread badge stays red.
      expect(greenUp.success).toBe(redUp.down);
      expect(greenUp.badge).not.toBe(greenUp.down);
    }
  });

  it('defaults to red-up in Chinese and green-up elsewhere, unless the user chose', () => {
    expect(effectivePriceColors(null, 'zh-CN')).toBe('red-up');
    expect(effectivePriceColors(null, 'zh-TW')).toBe('red-up');
    expect(effectivePriceColors(null, 'en')).toBe('green-up');
    expect(effectivePriceColors(null, 'vi')).toBe('green-up');
    expect(effectivePriceColors('green-up', 'zh-CN')).toBe('green-up');
    expect(effectivePriceColors('red-up', 'th')).toBe('red-up');
  });
});

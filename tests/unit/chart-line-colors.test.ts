import { describe, expect, it } from 'vitest';
import { lineColorsFor } from '../../src/shared/chart-lines';
import { PALETTES } from '../../src/app/theme/palettes';

/** WCAG 2.x relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe('indicator line colours (the readout writes each value in its line colour)', () => {
  it('computes contrast as WCAG does', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });

  for (const theme of ['black', 'red'] as const) {
    it(`reads at AA (4.5:1) on every surface of the ${theme} theme`, () => {
      const palette = PALETTES[theme];
      for (const color of lineColorsFor(theme === 'black')) {
        for (const background of [palette.bg, palette.surface, palette.surface2]) {
          expect(contrast(color, background), `${color} on ${background}`).toBeGreaterThanOrEqual(4.5);
        }
      }
    });
  }

  it('keeps five distinct hues per theme', () => {
    expect(new Set(lineColorsFor(true)).size).toBe(5);
    expect(new Set(lineColorsFor(false)).size).toBe(5);
  });
});

import type { PriceColorConvention } from '../state/price-colors';
import type { ThemeName } from '../state/theme';

/**
 * The two themes of spec §1 as CSS custom properties on <html>. `up` and `down` are written for the
 * Chinese convention (red up, green down); the green-up convention swaps them (applyTheme).
 */
export interface Palette {
  bg: string;
  surface: string;
  surface2: string;
  text: string;
  text2: string;
  border: string;
  accent: string;
  accentText: string;
  headerBg: string;
  headerText: string;
  up: string;
  down: string;
  flat: string;
  /** Text on an up, down or flat background (price pills, buy and sell buttons), AA on both. */
  onMove: string;
  /** Errors and warnings: fixed red, whichever way the up/down colours go. */
  danger: string;
  /**
   * Statuses that went well (verified, paid, succeeded): fixed green, whichever way the up/down colours go,
   * so "Verified" never turns red under the green-up convention.
   */
  success: string;
  /** Attention marks (the unread badge): fixed red, never the down colour. */
  badge: string;
  /** Text on a success, danger or badge background, AA on each. */
  onStatus: string;
  noticeBg: string;
  noticeText: string;
}

export const PALETTES: Record<ThemeName, Palette> = {
  black: {
    bg: '#0f1014',
    surface: '#191b21',
    surface2: '#23262e',
    text: '#eceef2',
    text2: '#a3a9b5',
    border: '#2c3039',
    accent: '#e2b65a',
    accentText: '#17130a',
    headerBg: '#191b21',
    headerText: '#eceef2',
    up: '#ff5b4f',
    down: '#1fbf75',
    flat: '#a3a9b5',
    danger: '#ff6b60',
    success: '#1fbf75',
    badge: '#ff6b60',
    onStatus: '#0f1014',
    onMove: '#0f1014',
    noticeBg: '#3a2f12',
    noticeText: '#f3d58f',
  },
  red: {
    bg: '#f4f5f7',
    surface: '#ffffff',
    surface2: '#f0f1f4',
    text: '#1c1f26',
    text2: '#5d6470',
    border: '#e2e4e9',
    accent: '#c9241b',
    accentText: '#ffffff',
    headerBg: '#c9241b',
    headerText: '#ffffff',
    up: '#d9261c',
    down: '#0b7a45',
    flat: '#5d6470',
    danger: '#c9241b',
    success: '#0b7a45',
    badge: '#c9241b',
    onStatus: '#ffffff',
    onMove: '#ffffff',
    noticeBg: '#fff4d6',
    noticeText: '#6b4b00',
  },
};

/** The palette a theme shows under an up/down colour convention. */
export function paletteFor(theme: ThemeName, convention: PriceColorConvention = 'red-up'): Palette {
  const palette = PALETTES[theme];
  return convention === 'red-up' ? palette : { ...palette, up: palette.down, down: palette.up };
}

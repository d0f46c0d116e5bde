import type { ThemeName } from '../state/theme';

/**
 * The two themes of spec §1 as CSS custom properties on <html>. Colours for prices follow the Chinese
 * convention: red for up, green for down.
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
    down: '#0f8a4f',
    flat: '#5d6470',
    noticeBg: '#fff4d6',
    noticeText: '#6b4b00',
  },
};

const toCssName = (key: string) => `--${key.replace(/[A-Z0-9]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Writes the palette onto <html> and the browser's theme colour. */
export function applyTheme(theme: ThemeName, root: HTMLElement = document.documentElement): void {
  const palette = PALETTES[theme];
  for (const [key, value] of Object.entries(palette)) root.style.setProperty(toCssName(key), value);
  root.dataset.theme = theme;
  root.style.colorScheme = theme === 'black' ? 'dark' : 'light';
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', palette.headerBg);
}

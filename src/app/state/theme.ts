import { observable } from '@legendapp/state';
import { persistLocally } from './persist';

/** spec §1: two colour themes, remembered in local storage. */
export type ThemeName = 'black' | 'red';

export const theme$ = observable<ThemeName>('red');
persistLocally(theme$, 'theme');

export function setTheme(theme: ThemeName): void {
  theme$.set(theme);
}

/** spec §4: the theme toggles between black and red. */
export function toggleTheme(): void {
  theme$.set((current) => (current === 'black' ? 'red' : 'black'));
}

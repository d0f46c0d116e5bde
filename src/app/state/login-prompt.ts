import { observable } from '@legendapp/state';

/** spec §4: the login prompt sheet is hidden or shown; close, login or register hides it. */
export const loginPrompt$ = observable(false);

export function showLoginPrompt(): void {
  loginPrompt$.set(true);
}

export function hideLoginPrompt(): void {
  loginPrompt$.set(false);
}

import { observable } from '@legendapp/state';
import type { User } from '../../shared/api/types';
import { persistLocally } from './persist';

export interface SessionState {
  /** The bearer token of API.md; null when logged out. */
  token: string | null;
  /** The last user info the station sent (masked phone, accounts). */
  user: User | null;
}

export const session$ = observable<SessionState>({ token: null, user: null });
persistLocally(session$, 'session');

export function setSession(token: string, user: User): void {
  session$.set({ token, user });
}

export function setSessionUser(user: User): void {
  session$.user.set(user);
}

/**
 * Logout, and spec §8: on "please log in first" the stored token is removed. The device also forgets what
 * the service worker kept for the user (their watchlist, edits queued offline, src/db/user-data.ts).
 */
export function clearSession(): void {
  session$.set({ token: null, user: null });
  if (!('indexedDB' in globalThis)) return;
  void import('../../db/user-data').then(({ forgetUserData }) => forgetUserData()).catch(() => undefined);
}

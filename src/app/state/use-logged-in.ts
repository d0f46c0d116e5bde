import { useSelector } from '@legendapp/state/react';
import { session$ } from './session';

/** Whether a session is held now; a screen re-renders when the user logs in or out. */
export function useLoggedIn(): boolean {
  return useSelector(() => session$.token.get() !== null);
}

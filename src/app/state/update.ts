import { observable } from '@legendapp/state';

/** A new service worker is installed and waiting for the user's go-ahead (prompt-type update). */
export const updateAvailable$ = observable(false);

export function setUpdateAvailable(available: boolean): void {
  updateAvailable$.set(available);
}

/**
 * Logout as the app runs it: the device forgets the user — their stored watchlist and the edits they
 * queued offline. The app loads this on demand, never on its start-up path (schema.ts).
 */
import { DataCache } from './data-cache';

export async function forgetUserData(): Promise<void> {
  if (!('indexedDB' in globalThis)) return;
  const cache = await DataCache.open();
  try {
    await cache.forgetUsers();
  } finally {
    cache.db.close();
  }
}

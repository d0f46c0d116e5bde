import { registerSW } from 'virtual:pwa-register';
import { setUpdateAvailable } from './state/update';

let activateWaiting: ((reloadPage?: boolean) => Promise<void>) | null = null;

/**
 * Registers the service worker through vite-plugin-pwa's prompt-type registration (workbox-window).
 * A waiting update is announced in state; the user's go-ahead posts SKIP_WAITING and the page reloads
 * once the new worker controls it.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  activateWaiting = registerSW({
    onNeedRefresh: () => setUpdateAvailable(true),
    onRegisterError: (error: unknown) => console.warn('Service worker registration failed', error),
  });
}

export function installUpdate(): void {
  setUpdateAvailable(false);
  void activateWaiting?.(true);
}

export function postponeUpdate(): void {
  setUpdateAvailable(false);
}

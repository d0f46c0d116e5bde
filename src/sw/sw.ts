/// <reference lib="webworker" />
/**
 * The service worker, small files by concern: shell.ts (precache and navigations), update.ts (the
 * prompt-type update), api.ts with strategies.ts and outbox.ts (API calls against the discovered base URL,
 * IndexedDB caching), data-layer.ts with discovery.ts (base-URL discovery), messages.ts (the page's
 * questions), images.ts (uploaded pictures); and the tap on a message's system notification.
 */
import { clientsClaim } from 'workbox-core';
import { routeApiCalls } from './api';
import { configSources, DataLayer } from './data-layer';
import { routeImages } from './images';
import { listenForPageMessages } from './messages';
import { Outbox, OUTBOX_SYNC_TAG } from './outbox';
import { routeAppShell, type ShellEntry } from './shell';
import { listenForSkipWaiting } from './update';

interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: ShellEntry[];
  registration: ServiceWorkerRegistration & {
    sync?: { register(tag: string): Promise<void> };
  };
};

const layer = new DataLayer({
  origin: self.location.origin,
  configSources: configSources(self.location.origin, __PAPERDESK_CONFIG_SOURCES__),
  appVersion: __PAPERDESK_VERSION__,
  fetch: (input, init) => fetch(input, init),
  isBrowserOffline: () => self.navigator.onLine === false,
  unreachableAfterMs: __PAPERDESK_UNREACHABLE_AFTER_S__ * 1000,
  onBaseUrl: (message) => {
    void self.clients
      .matchAll({ type: 'window' })
      .then((clients) => clients.forEach((client) => client.postMessage(message)));
  },
  // The station runs another version than this shell: fetch sw.js now, so the new build installs and the
  // page offers it, rather than an old shell going on talking to a new server.
  onServerVersion: () => void self.registration.update().catch(() => undefined),
});
const outbox = new Outbox(
  layer,
  (request) => fetch(request),
  async () => {
    await self.registration.sync?.register(OUTBOX_SYNC_TAG);
  },
);

const laterFiles = routeAppShell(self.__WB_MANIFEST, self.location.origin);
routeApiCalls(layer, outbox);
routeImages();
listenForSkipWaiting(self);
listenForPageMessages(self, layer, outbox, laterFiles, __PAPERDESK_BUILD_ID__);
self.addEventListener('sync', (event) => {
  const sync = event as SyncEvent;
  if (sync.tag === OUTBOX_SYNC_TAG) sync.waitUntil(outbox.flush());
});
// The rest of the build is fetched once this worker is active, not before: on a slow link it must not delay
// control. Not in the activate event's waitUntil, which would delay it just the same.
self.addEventListener('activate', () => void laterFiles.warm());
// A system notification of a message (a fired price alert, message-stream.ts): a tap opens the message in an
// open window of the app, or in a new one.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data as { url?: unknown } | null;
  const path = typeof data?.url === 'string' && data.url.startsWith('/') ? data.url : '/notify';
  const url = new URL(path, self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window' }).then(async (windows) => {
      const open = windows[0];
      if (open) {
        await open.focus();
        await open.navigate(url);
      } else {
        await self.clients.openWindow(url);
      }
    }),
  );
});
clientsClaim();

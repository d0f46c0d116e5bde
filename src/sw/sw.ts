/// <reference lib="webworker" />
/**
 * The service worker, small files by concern: shell.ts (precache and navigations), update.ts (the
 * prompt-type update). A later issue adds base-URL discovery and IndexedDB caching of market data.
 */
import { clientsClaim } from 'workbox-core';
import type { PrecacheEntry } from 'workbox-precaching';
import { routeAppShell } from './shell';
import { listenForSkipWaiting } from './update';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | PrecacheEntry)[] };

routeAppShell(self.__WB_MANIFEST);
listenForSkipWaiting(self);
clientsClaim();

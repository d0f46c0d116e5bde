import { registerSW } from 'virtual:pwa-register';
import type { BaseUrlAnswer, BaseUrlChanged, PageToWorker } from '../shared/sw-protocol';
import { setKnownBaseUrl } from './api/base-url';
import { setOnline, setUnreachable } from './state/connection';
import { setUpdateAvailable } from './state/update';

let activateWaiting: ((reloadPage?: boolean) => Promise<void>) | null = null;

/** How often an open app asks for a new build (besides every start and every return to the page). */
export const UPDATE_CHECK_MS = 60 * 60 * 1000;
/** How long the page waits for the service worker to answer a question. */
const WORKER_ANSWER_MS = 15_000;

function postToWorker(message: PageToWorker): void {
  navigator.serviceWorker?.controller?.postMessage(message);
}

/** Asks the controlling service worker and waits for its answer on a channel; null without one. */
export function askWorker<T>(message: PageToWorker): Promise<T | null> {
  const worker = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker?.controller;
  if (!worker) return Promise.resolve(null);
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(null), WORKER_ANSWER_MS);
    channel.port1.onmessage = (event: MessageEvent<T>) => {
      clearTimeout(timer);
      resolve(event.data);
    };
    worker.postMessage(message, [channel.port2]);
  });
}

function isBaseUrlChanged(data: unknown): data is BaseUrlChanged {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'BASE_URL';
}

/** Keeps the shell's online state, and the service worker's view of it, in step with the browser. */
function watchNetwork(): void {
  const tell = () => {
    setOnline(navigator.onLine);
    postToWorker({ type: 'NETWORK_STATE', online: navigator.onLine });
    // The worker fetches the screens the first visit did not need (it starts once active; a worker
    // stopped half-way, or a link that failed, goes on from here).
    if (navigator.onLine) postToWorker({ type: 'OFFLINE_READY' });
  };
  window.addEventListener('online', tell);
  window.addEventListener('offline', tell);
  tell();
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.addEventListener('controllerchange', tell);
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
    if (!isBaseUrlChanged(event.data)) return;
    setKnownBaseUrl(event.data.baseUrl);
    if (event.data.unreachable && navigator.onLine) setUnreachable(true, event.data.waitingFor);
  });
  // spec §7: the base URL is resolved at start; spec §8: with none the page is replaced by "cannot
  // connect", but only once the device is online and nothing has answered for the stated time (the
  // service worker says so: a single lost ping is not an outage).
  void askWorker<BaseUrlAnswer>({ type: 'GET_BASE_URL' }).then((answer) => {
    if (!answer) return;
    setKnownBaseUrl(answer.baseUrl);
    if (answer.baseUrl === null && answer.unreachable && navigator.onLine) {
      setUnreachable(true, answer.waitingFor);
    }
  });
}

/**
 * Looks for a new build on every start, on every return to the page and hourly, so an open shell learns
 * of a deploy soon; the new worker then waits for the user's go-ahead.
 */
function checkForUpdates(registration: ServiceWorkerRegistration): void {
  const check = () => void registration.update().catch(() => undefined);
  setInterval(check, UPDATE_CHECK_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') check();
  });
}

/**
 * Registers the service worker through vite-plugin-pwa's prompt-type registration (workbox-window).
 * A waiting update is announced in state; the user's go-ahead posts SKIP_WAITING and the page reloads
 * once the new worker controls it.
 */
export function registerServiceWorker(): void {
  // Which build runs (tests and support read it; a new build is a new id).
  document.documentElement.dataset.build = __PAPERDESK_BUILD_ID__;
  // A code chunk of this build is gone from the server (a deploy while the page was open, with no worker
  // to keep it): load the new build whole rather than mix two.
  window.addEventListener('vite:preloadError', () => window.location.reload());
  watchNetwork();
  if (!('serviceWorker' in navigator)) return;
  activateWaiting = registerSW({
    // Already called once the first screen is drawn and the browser idle: not also after the page's load
    // event, which waits for every image of the first screen.
    immediate: true,
    onNeedRefresh: () => setUpdateAvailable(true),
    onRegisteredSW: (_url, registration) => {
      if (registration) checkForUpdates(registration);
    },
    onRegisterError: (error: unknown) => console.warn('Service worker registration failed', error),
  });
}

export function installUpdate(): void {
  setUpdateAvailable(false);
  // The page starts again once the new worker controls it (workbox-window does not report a worker that
  // was already waiting when this page registered).
  navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), {
    once: true,
  });
  void activateWaiting?.(true);
  void navigator.serviceWorker.getRegistration().then((registration) => {
    const message: PageToWorker = { type: 'SKIP_WAITING' };
    registration?.waiting?.postMessage(message);
  });
}

export function postponeUpdate(): void {
  setUpdateAvailable(false);
}

/**
 * The cannot-connect page's retry: the service worker runs the discovery again; when a base URL answers,
 * the page starts again on it. Without a service worker the page is simply loaded again.
 */
export async function retryConnection(): Promise<boolean> {
  const answer = await askWorker<BaseUrlAnswer>({ type: 'DISCOVER' });
  if (answer === null || answer.baseUrl !== null) {
    setUnreachable(false);
    window.location.reload();
    return true;
  }
  if (answer.waitingFor) setUnreachable(true, answer.waitingFor);
  return false;
}

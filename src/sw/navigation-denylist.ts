/**
 * Which navigations the service worker must not answer with the app shell: the station's API and docs
 * (they share the origin in the embedded mode) and files. /user and /User themselves are app routes;
 * only what lies below /user/ is the API.
 */
export const NAVIGATION_DENYLIST: readonly RegExp[] = [
  /^\/api\//,
  /^\/user\//,
  /^\/code\//,
  /^\/docs(?:\/|$)/,
  // A last path segment with a file extension (/sw.js, /icons/icon-192.png, /manifest.webmanifest).
  /^[^?]*\/[^/?]+\.[a-z0-9]+(?:\?|$)/i,
];

/** True when a navigation to `pathAndSearch` (pathname plus search) gets the app shell. */
export function servesAppShell(pathAndSearch: string): boolean {
  return !NAVIGATION_DENYLIST.some((pattern) => pattern.test(pathAndSearch));
}

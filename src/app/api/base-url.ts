/**
 * The API's base URL as the service worker discovered it (spec §7). Calls through `fetch` need none of
 * this: the service worker sends them to the base itself. Only what bypasses it, the live stream's
 * EventSource, is addressed here.
 */
let knownBaseUrl: string | null = null;

export function setKnownBaseUrl(baseUrl: string | null): void {
  knownBaseUrl = baseUrl;
}

export function getKnownBaseUrl(): string | null {
  return knownBaseUrl;
}

/** `path` on the discovered base URL; the path itself when the base is the app's own origin or unknown. */
export function onApiBase(path: string): string {
  if (knownBaseUrl === null) return path;
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
  if (knownBaseUrl === origin) return path;
  return `${knownBaseUrl}${path}`;
}

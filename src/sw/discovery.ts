/**
 * Base-URL discovery (spec §7, §8; ARCHITECTURE "Base-URL discovery"), as plain logic over an injected
 * fetch and storage so it is tested without a browser:
 *
 * 1. a cached base URL is checked with GET /api/index/ping.do, an answer with status 0 accepts it;
 * 2. a cached URL failing the ping is dropped;
 * 3. the configured remote config files are read in order, taking the field `ads` (one URL or a list);
 *    a file that fails or lacks it is skipped;
 * 4. the first URL that answers a ping is cached and used; with none the answer is null and the app shows
 *    "Cannot connect to the server, please check your network and retry".
 *
 * On a lossy mobile link one lost packet is not an outage: a ping that gets no answer is tried again after a
 * short pause before its URL counts as failed, and a config file naming a URL already tried confirms it (it is
 * pinged once more, and a cached URL a config file confirms is kept for the next start, not dropped).
 */
export const PING_PATH = '/api/index/ping.do';
/** How long a ping or a config file may take before it counts as failed. */
export const DISCOVERY_TIMEOUT_MS = 5000;
/** The pauses before a failed ping is tried again: three tries in all before a URL counts as failed. */
export const PING_RETRY_DELAYS_MS: readonly number[] = [250, 1000];

/** Discovery never reads the HTTP cache: a stale ping or config file would hide a change of server. */
const BYPASS_HTTP_CACHE = { cache: 'no-store', credentials: 'omit' } as const;

export type FetchLike = (input: string | Request, init?: RequestInit) => Promise<Response>;

export interface DiscoveryDeps {
  fetch: FetchLike;
  /** The config files' URLs, in the order they are tried (absolute). */
  configSources: readonly string[];
  readCached(): Promise<string | undefined>;
  writeCached(baseUrl: string): Promise<void>;
  dropCached(): Promise<void>;
  timeoutMs?: number;
  /** The pauses between tries of a ping (PING_RETRY_DELAYS_MS by default). */
  retryDelaysMs?: readonly number[];
  sleep?: (ms: number) => Promise<void>;
}

export interface Discovered {
  baseUrl: string;
  /** The station's version from the ping (API.md), to notice a shell older than its server. */
  serverVersion: string | undefined;
  source: 'cache' | 'config';
}

/** A base URL as the service worker prefixes paths with: absolute http(s), no trailing slash. */
export function normaliseBaseUrl(raw: string, relativeTo?: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim(), relativeTo);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path}`;
}

/** The base URLs a config file names in `ads` (a string or a list of strings); relative ones resolve against the file. */
export function readAds(json: unknown, sourceUrl: string): string[] {
  if (typeof json !== 'object' || json === null || !('ads' in json)) return [];
  const { ads } = json as { ads: unknown };
  const raw = typeof ads === 'string' ? [ads] : Array.isArray(ads) ? ads : [];
  const urls: string[] = [];
  for (const item of raw) {
    if (typeof item !== 'string' || item.trim() === '') continue;
    const url = normaliseBaseUrl(item, sourceUrl);
    if (url && !urls.includes(url)) urls.push(url);
  }
  return urls;
}

async function fetchWithTimeout(fetch: FetchLike, url: string, init: RequestInit, ms: number) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    return await fetch(url, { ...init, signal: controller.signal });
  } finally {
    clearTimeout(timer);
  }
}

/** Pings a base URL: the station's version when it answers with status 0, else null. */
export async function pingBaseUrl(
  fetch: FetchLike,
  baseUrl: string,
  timeoutMs = DISCOVERY_TIMEOUT_MS,
): Promise<{ version: string | undefined } | null> {
  try {
    const response = await fetchWithTimeout(
      fetch,
      `${baseUrl}${PING_PATH}`,
      { ...BYPASS_HTTP_CACHE, method: 'GET', headers: { Accept: 'application/json' } },
      timeoutMs,
    );
    const body: unknown = await response.json();
    if (typeof body !== 'object' || body === null || (body as { status?: unknown }).status !== 0) return null;
    const data = (body as { data?: { version?: unknown } }).data;
    return { version: typeof data?.version === 'string' ? data.version : undefined };
  } catch {
    return null;
  }
}

function sleepMs(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Pings a base URL, trying again after each of `delaysMs` while it gets no good answer. */
export async function pingWithRetry(
  fetch: FetchLike,
  baseUrl: string,
  timeoutMs = DISCOVERY_TIMEOUT_MS,
  delaysMs: readonly number[] = PING_RETRY_DELAYS_MS,
  sleep: (ms: number) => Promise<void> = sleepMs,
): Promise<{ version: string | undefined } | null> {
  for (let attempt = 0; ; attempt += 1) {
    const ping = await pingBaseUrl(fetch, baseUrl, timeoutMs);
    if (ping) return ping;
    const delay = delaysMs[attempt];
    if (delay === undefined) return null;
    await sleep(delay);
  }
}

async function readConfigFile(fetch: FetchLike, source: string, timeoutMs: number): Promise<string[]> {
  try {
    const response = await fetchWithTimeout(
      fetch,
      source,
      { ...BYPASS_HTTP_CACHE, method: 'GET' },
      timeoutMs,
    );
    if (!response.ok) return [];
    return readAds(await response.json(), source);
  } catch {
    return [];
  }
}

/** Runs the discovery once; null when no base URL answers. */
export async function discoverBaseUrl(deps: DiscoveryDeps): Promise<Discovered | null> {
  const timeoutMs = deps.timeoutMs ?? DISCOVERY_TIMEOUT_MS;
  const ping = (url: string) =>
    pingWithRetry(deps.fetch, url, timeoutMs, deps.retryDelaysMs ?? PING_RETRY_DELAYS_MS, deps.sleep);
  const tried = new Set<string>();
  /** URLs a config file named after they had failed: each gets one more ping, not one per file. */
  const confirmed = new Set<string>();

  const cached = await deps.readCached();
  let cachedDropped = false;
  const dropCached = async () => {
    if (!cached || cachedDropped) return;
    cachedDropped = true;
    await deps.dropCached();
  };
  if (cached) {
    tried.add(cached);
    const answer = await ping(cached);
    if (answer) return { baseUrl: cached, serverVersion: answer.version, source: 'cache' };
  }

  for (const source of deps.configSources) {
    for (const candidate of await readConfigFile(deps.fetch, source, timeoutMs)) {
      if (tried.has(candidate)) {
        // The config still names it: the URL is right and the link lost the ping, so it gets one more.
        if (confirmed.has(candidate)) continue;
        confirmed.add(candidate);
      }
      tried.add(candidate);
      const answer = await ping(candidate);
      if (answer) {
        if (candidate !== cached) {
          await dropCached();
          await deps.writeCached(candidate);
        }
        return { baseUrl: candidate, serverVersion: answer.version, source: 'config' };
      }
    }
  }
  // A cached URL no config file names any more is dropped (spec §8); one they still name is kept.
  if (cached && !confirmed.has(cached)) await dropCached();
  return null;
}

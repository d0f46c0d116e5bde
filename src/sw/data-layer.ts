/**
 * The service worker's runtime state for API calls: the IndexedDB cache, the base URL (discovery.ts) and
 * what it knows of the network. The strategies (strategies.ts) and the outbox (outbox.ts) go through it.
 */
import { DataCache } from '../db/data-cache';
import type { BaseUrlChanged } from '../shared/sw-protocol';
import { discoverBaseUrl, normaliseBaseUrl, type FetchLike } from './discovery';

/** A failed discovery is not run again for this long, so an offline page does not ping on every call. */
export const DISCOVERY_RETRY_GAP_MS = 2000;
/**
 * For this long after the network comes back, a call that gets no answer is put down to the network still
 * coming up (the browser says "online" before its connections work), not to the station being unreachable.
 */
export const NETWORK_SETTLE_MS = 5000;
const BASE_URL_KEY = 'baseUrl';

/** The configured config files (build setting), absolute. */
export function configSources(origin: string, setting: string): string[] {
  return setting
    .split(',')
    .map((source) => source.trim())
    .filter((source) => source !== '')
    .map((source) => new URL(source, origin).href);
}

export interface DataLayerOptions {
  origin: string;
  configSources: readonly string[];
  /** The API version this build speaks (package.json), compared with the station's ping. */
  appVersion: string;
  fetch: FetchLike;
  /** Called when the base URL changes (null: none answers). */
  onBaseUrl(message: BaseUrlChanged): void;
  /** Called when the station reports another version than this build's: look for a new build. */
  onServerVersion(version: string): void;
  isBrowserOffline(): boolean;
}

export class DataLayer {
  private cachePromise: Promise<DataCache> | null = null;
  private baseUrl: string | null = null;
  private discovering: Promise<string | null> | null = null;
  private lastFailureAt = -Infinity;
  private pageOffline = false;
  /** Whether the last look at the network found it offline, and when it last came back. */
  private wasOffline = false;
  private backOnlineAt = -Infinity;

  constructor(private readonly options: DataLayerOptions) {}

  cache(): Promise<DataCache> {
    this.cachePromise ??= DataCache.open().catch((error: unknown) => {
      this.cachePromise = null;
      throw error;
    });
    return this.cachePromise;
  }

  /** Offline as the browser or a page says: calls are not even tried. */
  isOffline(): boolean {
    const offline = this.pageOffline || this.options.isBrowserOffline();
    if (this.wasOffline && !offline) this.backOnlineAt = Date.now();
    this.wasOffline = offline;
    return offline;
  }

  setPageOnline(online: boolean): void {
    this.pageOffline = !online;
    this.isOffline();
    if (online) this.lastFailureAt = -Infinity;
  }

  /**
   * Whether a call that got no answer means the station cannot be reached (spec §8: the page is replaced by
   * "cannot connect"): online, and not in the moments after the network came back.
   */
  mayCallUnreachable(): boolean {
    return !this.isOffline() && Date.now() - this.backOnlineAt >= NETWORK_SETTLE_MS;
  }

  get origin(): string {
    return this.options.origin;
  }

  /** The validated base URL, discovering it when none is known; null offline or when none answers. */
  async resolveBaseUrl(): Promise<string | null> {
    if (this.baseUrl) return this.baseUrl;
    if (this.isOffline()) return null;
    if (this.discovering) return this.discovering;
    if (Date.now() - this.lastFailureAt < DISCOVERY_RETRY_GAP_MS) return null;
    return this.discover();
  }

  /** Forgets the base URL and discovers again (retry from the cannot-connect page). */
  rediscover(): Promise<string | null> {
    this.baseUrl = null;
    this.lastFailureAt = -Infinity;
    return this.discovering ?? this.discover();
  }

  /** A call to `baseUrl` got no answer: the next call checks it again with a ping. */
  networkFailed(baseUrl: string): void {
    if (this.baseUrl === baseUrl) this.baseUrl = null;
  }

  /** The request sent to the base URL: the same request when the base is the app's own origin. */
  async toBaseRequest(request: Request, baseUrl: string): Promise<Request> {
    const url = new URL(request.url);
    if (baseUrl === this.options.origin) return request;
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    return new Request(`${baseUrl}${url.pathname}${url.search}`, {
      method: request.method,
      headers: request.headers,
      body: hasBody ? await request.clone().arrayBuffer() : undefined,
      credentials: 'include',
      mode: 'cors',
      signal: request.signal,
    });
  }

  /** Sends a request to the base URL; a network failure marks the base for a new check and rethrows. */
  async fetchFromBase(request: Request, baseUrl: string): Promise<Response> {
    try {
      return await this.options.fetch(await this.toBaseRequest(request, baseUrl));
    } catch (error) {
      if (!request.signal.aborted) this.networkFailed(baseUrl);
      throw error;
    }
  }

  private discover(): Promise<string | null> {
    const run = async (): Promise<string | null> => {
      const cache = await this.cache().catch(() => null);
      const found = await discoverBaseUrl({
        fetch: this.options.fetch,
        configSources: this.options.configSources,
        readCached: async () => {
          const stored = await cache?.getConfig<string>(BASE_URL_KEY);
          return typeof stored === 'string' ? (normaliseBaseUrl(stored) ?? undefined) : undefined;
        },
        writeCached: async (baseUrl) => cache?.setConfig(BASE_URL_KEY, baseUrl),
        dropCached: async () => cache?.deleteConfig(BASE_URL_KEY),
      });
      const previous = this.baseUrl;
      this.baseUrl = found?.baseUrl ?? null;
      if (!found) this.lastFailureAt = Date.now();
      if (previous !== this.baseUrl || !found) {
        this.options.onBaseUrl({ type: 'BASE_URL', baseUrl: this.baseUrl });
      }
      if (found?.serverVersion && found.serverVersion !== this.options.appVersion) {
        this.options.onServerVersion(found.serverVersion);
      }
      return this.baseUrl;
    };
    const discovering = run().finally(() => {
      this.discovering = null;
    });
    this.discovering = discovering;
    return discovering;
  }
}

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
/**
 * A base URL that answered this recently is used at a page's start without a ping (checked by the first call
 * instead): every open of the app does not hang on one ping over a lossy link.
 */
export const RECENTLY_ANSWERED_MS = 10 * 60_000;
/** How long nothing may answer before the app says "cannot connect" (build setting, seconds). */
export const DEFAULT_UNREACHABLE_AFTER_MS = 20_000;
/** The pauses between rounds of a discovery that found nothing, until something answers or the time above passes. */
export const REDISCOVERY_DELAYS_MS: readonly number[] = [1000, 2000, 4000, 8000];
/** An answer's time is written to IndexedDB at most this often (every answer would be a write). */
const ANSWERED_AT_WRITE_GAP_MS = 60_000;
const BASE_URL_KEY = 'baseUrl';
const ANSWERED_AT_KEY = 'baseUrlAnsweredAt';

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
  /** How long no source may answer before calls are told "cannot connect" (DEFAULT_UNREACHABLE_AFTER_MS). */
  unreachableAfterMs?: number;
  /** The pauses between discovery rounds (REDISCOVERY_DELAYS_MS); the ping's own retries are discovery.ts's. */
  rediscoveryDelaysMs?: readonly number[];
  /** The pauses between a ping's tries (discovery.ts PING_RETRY_DELAYS_MS by default). */
  pingRetryDelaysMs?: readonly number[];
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
  /** When the base URL last answered anything (a ping or a call), and when that was last written down. */
  private answeredAt = -Infinity;
  private answeredAtWritten = -Infinity;
  /** Since when nothing has answered (a call to the base URL without an answer, a discovery finding none). */
  private failingSince: number | null = null;

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
    if (this.wasOffline && !offline) {
      this.backOnlineAt = Date.now();
      // Back online: the time without an answer counts from now, not from before the device went offline.
      this.failingSince = null;
    }
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
    if (this.isOffline() || Date.now() - this.backOnlineAt < NETWORK_SETTLE_MS) return false;
    // Only once no source has answered for the stated time: one lost ping is not an outage.
    return Date.now() - (this.failingSince ?? Date.now()) >= this.unreachableAfterMs;
  }

  get unreachableAfterMs(): number {
    return this.options.unreachableAfterMs ?? DEFAULT_UNREACHABLE_AFTER_MS;
  }

  /** What the app waits for while nothing answers: the last base URL tried and the config files. */
  waitingFor(): string[] {
    return [...new Set([...(this.lastBaseUrl ? [this.lastBaseUrl] : []), ...this.options.configSources])];
  }

  private lastBaseUrl: string | null = null;

  /**
   * The base URL for a page that starts: one that answered recently at once, with no ping (the first call
   * checks it); a known one that answered longer ago at once too, checked by a discovery in the background;
   * else a discovery, waited for.
   */
  async startBaseUrl(): Promise<string | null> {
    await this.restore();
    if (this.baseUrl !== null) {
      if (Date.now() - this.answeredAt >= RECENTLY_ANSWERED_MS && !this.discovering) void this.discover();
      return this.baseUrl;
    }
    return this.resolveBaseUrl();
  }

  private restoring: Promise<void> | null = null;

  /**
   * Once per service worker (the browser stops and starts it at will): takes the stored base URL when it
   * answered recently, so a new worker does not ping before its first call.
   */
  private restore(): Promise<void> {
    this.restoring ??= (async () => {
      const cache = await this.cache().catch(() => null);
      const stored = await cache?.getConfig<string>(BASE_URL_KEY).catch(() => undefined);
      const at = await cache?.getConfig<number>(ANSWERED_AT_KEY).catch(() => undefined);
      const url = typeof stored === 'string' ? normaliseBaseUrl(stored) : null;
      if (this.baseUrl !== null || this.discovering || !url || typeof at !== 'number') return;
      if (Date.now() - at >= RECENTLY_ANSWERED_MS) return;
      this.useBaseUrl(url);
      this.answeredAt = at;
      this.answeredAtWritten = at;
    })();
    return this.restoring;
  }

  /** The base URL answered a call: it is good, and nothing is failing. */
  answered(baseUrl: string): void {
    if (baseUrl !== this.baseUrl) return;
    const now = Date.now();
    this.answeredAt = now;
    this.failingSince = null;
    if (now - this.answeredAtWritten >= ANSWERED_AT_WRITE_GAP_MS) {
      this.answeredAtWritten = now;
      void this.cache()
        .then((cache) => cache.setConfig(ANSWERED_AT_KEY, now))
        .catch(() => undefined);
    }
  }

  private useBaseUrl(baseUrl: string | null): void {
    const previous = this.baseUrl;
    this.baseUrl = baseUrl;
    if (baseUrl !== null) this.lastBaseUrl = baseUrl;
    if (previous !== baseUrl) this.announce();
  }

  private announce(): void {
    const unreachable = this.baseUrl === null && this.mayCallUnreachable();
    this.options.onBaseUrl({
      type: 'BASE_URL',
      baseUrl: this.baseUrl,
      unreachable,
      waitingFor: this.waitingFor(),
    });
  }

  get origin(): string {
    return this.options.origin;
  }

  /** The validated base URL, discovering it when none is known; null offline or when none answers. */
  async resolveBaseUrl(): Promise<string | null> {
    if (this.baseUrl) return this.baseUrl;
    if (this.isOffline()) return null;
    await this.restore();
    if (this.baseUrl) return this.baseUrl;
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

  /**
   * A call to `baseUrl` got no answer. The base URL keeps serving (one lost answer is not an outage) while a
   * discovery checks it in the background; it is replaced when another answers, dropped when none has
   * answered for the stated time.
   */
  networkFailed(baseUrl: string): void {
    if (this.baseUrl !== baseUrl || this.isOffline()) return;
    this.failingSince ??= Date.now();
    if (!this.discovering) void this.discover();
  }

  /** The base URL once the discovery running now (after a call without an answer) has settled. */
  settled(): Promise<string | null> {
    return this.discovering ?? Promise.resolve(this.baseUrl);
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
      const response = await this.options.fetch(await this.toBaseRequest(request, baseUrl));
      this.answered(baseUrl);
      return response;
    } catch (error) {
      if (!request.signal.aborted) this.networkFailed(baseUrl);
      throw error;
    }
  }

  /**
   * Discovers in rounds until a base URL answers or none has for the stated time. A base URL known to be
   * good keeps serving meanwhile; calls with none wait for the outcome.
   */
  private discover(): Promise<string | null> {
    const delays = this.options.rediscoveryDelaysMs ?? REDISCOVERY_DELAYS_MS;
    const run = async (): Promise<string | null> => {
      const cache = await this.cache().catch(() => null);
      this.failingSince ??= Date.now();
      for (let round = 0; ; round += 1) {
        const found = await discoverBaseUrl({
          fetch: this.options.fetch,
          configSources: this.options.configSources,
          readCached: async () => {
            const stored = await cache?.getConfig<string>(BASE_URL_KEY);
            return typeof stored === 'string' ? (normaliseBaseUrl(stored) ?? undefined) : undefined;
          },
          writeCached: async (baseUrl) => cache?.setConfig(BASE_URL_KEY, baseUrl),
          // A device that went offline meanwhile says nothing about the URL: it stays for the next start.
          dropCached: async () => {
            if (!this.isOffline()) await cache?.deleteConfig(BASE_URL_KEY);
          },
          ...(this.options.pingRetryDelaysMs ? { retryDelaysMs: this.options.pingRetryDelaysMs } : {}),
        });
        if (found) {
          this.useBaseUrl(found.baseUrl);
          this.answered(found.baseUrl);
          if (found.serverVersion && found.serverVersion !== this.options.appVersion) {
            this.options.onServerVersion(found.serverVersion);
          }
          return this.baseUrl;
        }
        // A call answered meanwhile: the known base URL is good after all.
        if (this.failingSince === null && this.baseUrl !== null) return this.baseUrl;
        const failingFor = Date.now() - (this.failingSince ?? Date.now());
        const delay = delays[Math.min(round, delays.length - 1)];
        if (this.isOffline() || delay === undefined || failingFor >= this.unreachableAfterMs) break;
        await new Promise((resolve) =>
          setTimeout(resolve, Math.min(delay, this.unreachableAfterMs - failingFor)),
        );
      }
      this.lastFailureAt = Date.now();
      this.baseUrl = null;
      this.announce();
      return null;
    };
    const discovering = run().finally(() => {
      this.discovering = null;
    });
    this.discovering = discovering;
    return discovering;
  }
}

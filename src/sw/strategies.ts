/**
 * The strategies of API calls (ARCHITECTURE "How data flows") as workbox strategies over IndexedDB:
 * market data network first with a short timeout then the stored answer; K-line bars the same, merged per
 * chart; news and articles stale-while-revalidate; everything else network only, and a call that changes
 * anything fails at once while offline, before anything is sent.
 */
import { Strategy, type StrategyHandler } from 'workbox-strategies';
import { sliceBars } from '../db/bars';
import type { KlineKey } from '../db/data-cache';
import type { AnswerStore } from '../db/schema';
import { answerKey } from './api-routes';
import type { DataLayer } from './data-layer';
import { cachedAnswer, notSent, successData, tooOld, unreachable } from './responses';

/** How long market data may take before the stored answer is shown instead. */
export const MARKET_TIMEOUT_MS = 3500;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How old a stored answer may be and still be shown (marked "as of"): quotes, lists and bars for
 * PAPERDESK_STALE_AFTER_DAYS (7 by default), news and articles for PAPERDESK_ARTICLES_STALE_AFTER_DAYS (30);
 * an older one is not passed off as current (`tooOld`). The discovery's own config is not shown.
 */
export function maxAgeMs(store: AnswerStore | 'config' | 'bars'): number {
  if (store === 'config') return Number.POSITIVE_INFINITY;
  const days =
    store === 'news' || store === 'articles'
      ? __PAPERDESK_ARTICLES_STALE_AFTER_DAYS__
      : __PAPERDESK_STALE_AFTER_DAYS__;
  return days * DAY_MS;
}

/** A stored answer as the screen gets it: marked with its time, or refused as too old. */
export function storedAnswer(
  data: unknown,
  cachedAt: number,
  store: AnswerStore | 'config' | 'bars',
): Response {
  return Date.now() - cachedAt > maxAgeMs(store) ? tooOld(cachedAt) : cachedAnswer(data, cachedAt);
}

export function languageOf(request: Request): string {
  return request.headers.get('Accept-Language') ?? '';
}

/** What a call gets when the network gave nothing and nothing is stored. */
export function noAnswer(layer: DataLayer, baseUrl: string | null): Response {
  return baseUrl === null && layer.mayCallUnreachable() ? unreachable() : Response.error();
}

/**
 * A read that got no answer, sent once more when the discovery it set off has settled: a lost answer on a
 * lossy link, or a base URL gone while another answers. Reads only: a change is never sent twice by the
 * service worker (ARCHITECTURE "Orders and money").
 */
export async function readAgain(layer: DataLayer, request: Request): Promise<Response> {
  if (request.signal.aborted) return Response.error();
  const baseUrl = await layer.settled();
  if (baseUrl === null) return noAnswer(layer, baseUrl);
  try {
    return await layer.fetchFromBase(request, baseUrl);
  } catch {
    return Response.error();
  }
}

type Outcome = { response: Response } | { failed: true } | { timedOut: true };

/** The network's answer, or a timeout after `ms` (the request goes on; `network` still settles). */
async function raceTimeout(network: Promise<Response>, ms: number): Promise<Outcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ timedOut: true }), ms);
  });
  try {
    return await Promise.race([
      network.then(
        (response): Outcome => ({ response }),
        (): Outcome => ({ failed: true }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Network first with a short timeout, then the stored answer. `store` writes a good answer; `stored`
 * reads the fallback. With nothing stored after a timeout, the network is waited for after all.
 */
export async function networkFirst(
  layer: DataLayer,
  request: Request,
  handler: StrategyHandler,
  store: (response: Response) => Promise<void>,
  stored: () => Promise<Response | undefined>,
): Promise<Response> {
  const baseUrl = await layer.resolveBaseUrl();
  if (baseUrl === null) return (await stored()) ?? noAnswer(layer, baseUrl);
  const network = layer.fetchFromBase(request, baseUrl);
  const first = await raceTimeout(network, MARKET_TIMEOUT_MS);
  if ('response' in first) {
    handler.waitUntil(store(first.response.clone()).catch(() => undefined));
    return first.response;
  }
  const fallback = await stored();
  if (fallback) {
    if ('timedOut' in first) {
      // The late answer is still stored for the next time.
      handler.waitUntil(network.then((response) => store(response.clone())).catch(() => undefined));
    }
    return fallback;
  }
  if ('failed' in first) return readAgain(layer, request);
  try {
    const response = await network;
    handler.waitUntil(store(response.clone()).catch(() => undefined));
    return response;
  } catch {
    return Response.error();
  }
}

export class NetworkFirstToDb extends Strategy {
  constructor(
    private readonly layer: DataLayer,
    private readonly store: AnswerStore | 'config',
  ) {
    super();
  }

  protected override async _handle(request: Request, handler: StrategyHandler): Promise<Response> {
    const key = answerKey(new URL(request.url), languageOf(request));
    return networkFirst(
      this.layer,
      request,
      handler,
      async (response) => {
        const answer = await successData(response);
        if (answer) await (await this.layer.cache()).writeAnswer(this.store, key, answer.data);
      },
      async () => {
        const entry = await (await this.layer.cache()).readAnswer(this.store, key).catch(() => undefined);
        return entry && storedAnswer(entry.data, entry.cachedAt, this.store);
      },
    );
  }
}

function numberParam(url: URL, name: string): number | undefined {
  const raw = url.searchParams.get(name);
  const value = raw === null ? NaN : Number(raw);
  return Number.isFinite(value) ? value : undefined;
}

/** K-line bars: network first; received bars merged into the chart's stored bars; offline, the stored ones. */
export class KlineNetworkFirst extends Strategy {
  constructor(
    private readonly layer: DataLayer,
    private readonly family: string,
    private readonly day: boolean,
  ) {
    super();
  }

  protected override async _handle(request: Request, handler: StrategyHandler): Promise<Response> {
    const url = new URL(request.url);
    const code = url.searchParams.get('code') ?? '';
    const period = url.searchParams.get('period') ?? (this.day ? 'day' : 'intraday');
    const adjust = this.day ? (url.searchParams.get('adjust') ?? 'none') : 'none';
    const key: KlineKey = { family: `${this.family}-${this.day ? 'day' : 'min'}`, code, period, adjust };
    return networkFirst(
      this.layer,
      request,
      handler,
      async (response) => {
        const answer = await successData(response);
        const bars = (answer?.data as { bars?: unknown } | undefined)?.bars;
        if (!code || !Array.isArray(bars)) return;
        // The intraday chart is today's bars only: a new answer replaces yesterday's.
        await (await this.layer.cache()).mergeBars(key, bars, period === 'intraday');
      },
      async () => {
        if (!code) return undefined;
        const entry = await (await this.layer.cache()).readBars(key).catch(() => undefined);
        if (!entry) return undefined;
        const bars = sliceBars(entry.data, numberParam(url, 'before'), numberParam(url, 'limit'));
        const data = this.day ? { code, period, adjust, bars } : { code, period, bars };
        return storedAnswer(data, entry.cachedAt, 'bars');
      },
    );
  }
}

/** The stored answer at once (marked with its time) and a refresh in the background; the network when nothing is stored. */
export class StaleWhileRevalidateToDb extends Strategy {
  constructor(
    private readonly layer: DataLayer,
    private readonly store: AnswerStore,
  ) {
    super();
  }

  protected override async _handle(request: Request, handler: StrategyHandler): Promise<Response> {
    const key = answerKey(new URL(request.url), languageOf(request));
    const cache = await this.layer.cache().catch(() => null);
    const entry = await cache?.readAnswer(this.store, key).catch(() => undefined);
    const refresh = async (): Promise<Response> => {
      const baseUrl = await this.layer.resolveBaseUrl();
      if (baseUrl === null) return noAnswer(this.layer, baseUrl);
      const response = await this.layer.fetchFromBase(request, baseUrl);
      const answer = await successData(response);
      if (answer && cache) await cache.writeAnswer(this.store, key, answer.data);
      return response;
    };
    if (entry && Date.now() - entry.cachedAt <= maxAgeMs(this.store)) {
      if (!this.layer.isOffline()) handler.waitUntil(refresh().catch(() => undefined));
      return cachedAnswer(entry.data, entry.cachedAt);
    }
    if (entry) {
      // Too old to show while the refresh runs: the station's answer, or the screen says how old it is.
      try {
        const response = await refresh();
        return response.ok || response.status < 500 ? response : tooOld(entry.cachedAt);
      } catch {
        return tooOld(entry.cachedAt);
      }
    }
    try {
      return await refresh();
    } catch {
      return Response.error();
    }
  }
}

/**
 * Network only: never stored, never queued, never replayed. A call that changes anything (`mutation`)
 * fails at once while offline, with nothing sent.
 */
export class GuardedNetworkOnly extends Strategy {
  constructor(
    private readonly layer: DataLayer,
    private readonly mutation: boolean,
  ) {
    super();
  }

  protected override _handle(request: Request): Promise<Response> {
    return networkOnly(this.layer, request, this.mutation);
  }
}

/** The network only, as GuardedNetworkOnly does it. */
export async function networkOnly(layer: DataLayer, request: Request, mutation: boolean): Promise<Response> {
  if (mutation && layer.isOffline()) return notSent();
  const baseUrl = await layer.resolveBaseUrl();
  if (baseUrl === null) {
    if (layer.isOffline()) return mutation ? notSent() : Response.error();
    return layer.mayCallUnreachable() ? unreachable() : Response.error();
  }
  try {
    return await layer.fetchFromBase(request, baseUrl);
  } catch {
    // No answer: the request may or may not have reached the station (the client's requestId makes a retry
    // safe, and the app asks the station what became of it: outcome.ts). A read is simply sent again.
    return mutation ? Response.error() : readAgain(layer, request);
  }
}

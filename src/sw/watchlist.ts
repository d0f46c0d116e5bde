/**
 * The watchlist's reads in the service worker: the list (list.do) network first and kept per
 * user (watchlist-edits.ts names whose it is), and whether a code is watched (isOption.do) from the
 * network, else from that kept list. On both, the edits still waiting in the outbox are applied, so the
 * screen shows at once what the station will hold once they are sent — also after a reload offline.
 */
import { Strategy, type StrategyHandler } from 'workbox-strategies';
import type { CachedAnswer } from '../db/schema';
import type { Quote } from '../shared/api/types';
import { answerKey } from './api-routes';
import type { DataLayer } from './data-layer';
import type { Outbox } from './outbox';
import { cachedAnswer, successData } from './responses';
import { languageOf, networkFirst, networkOnly } from './strategies';
import {
  addedCodes,
  applyQueuedEdits,
  asQuote,
  quoteWithin,
  userAnswerKey,
  userIdentity,
  WATCHLIST_EDIT_PATHS,
  WATCHLIST_LIST_PATH,
  type WatchlistEdit,
} from './watchlist-edits';

/** The edits queued for the user `authorization` speaks for, oldest first. */
async function queuedEdits(layer: DataLayer, authorization: string): Promise<WatchlistEdit[]> {
  const entries = await (await layer.cache()).queued();
  return entries.filter(
    (entry) => entry.headers.authorization === authorization && WATCHLIST_EDIT_PATHS.has(entry.path),
  );
}

/** The key of the user's stored list, for a request of theirs (the list's language is the request's). */
function listKey(identity: string, request: Request): string {
  return userAnswerKey(identity, answerKey(new URL(WATCHLIST_LIST_PATH, request.url), languageOf(request)));
}

/** The same answer with another `data` in its envelope (its headers, X-Cached-At among them, kept). */
async function withData(response: Response, data: unknown): Promise<Response> {
  const envelope = (await response.clone().json()) as Record<string, unknown>;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  return new Response(JSON.stringify({ ...envelope, data }), {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

/** Stored answers' data, those in `language` first (a quote's name is in the reader's language). */
function byLanguage(entries: readonly CachedAnswer[], language: string): unknown[] {
  const mine = (entry: CachedAnswer) => entry.key.startsWith(`${language} `);
  return [...entries.filter(mine), ...entries.filter((entry) => !mine(entry))].map((entry) => entry.data);
}

/** GET /user/option/list.do: network first, stored per user; the queued edits applied on the answer. */
export class WatchlistNetworkFirst extends Strategy {
  /** Quotes found for codes added offline, by language and code (a search through the stores is not cheap). */
  private readonly found = new Map<string, Quote>();

  constructor(
    private readonly layer: DataLayer,
    private readonly outbox: Outbox,
  ) {
    super();
  }

  protected override async _handle(request: Request, handler: StrategyHandler): Promise<Response> {
    const authorization = request.headers.get('Authorization');
    const identity = userIdentity(authorization);
    // No session: nothing to keep (the station says "please log in first").
    if (authorization === null || identity === null) return networkOnly(this.layer, request, false);
    // Queued edits go first, so the list read after them already holds them.
    if (!this.layer.isOffline()) await this.outbox.flush().catch(() => undefined);
    const key = listKey(identity, request);
    const response = await networkFirst(
      this.layer,
      request,
      handler,
      async (fresh) => {
        const answer = await successData(fresh);
        if (answer && Array.isArray(answer.data)) {
          await (await this.layer.cache()).writeAnswer('config', key, answer.data);
        }
      },
      async () => {
        const entry = await (await this.layer.cache()).readAnswer('config', key).catch(() => undefined);
        return entry && cachedAnswer(entry.data, entry.cachedAt);
      },
    );
    const edits = await queuedEdits(this.layer, authorization).catch(() => []);
    if (edits.length === 0) return response;
    const answer = await successData(response);
    if (!answer || !Array.isArray(answer.data)) return response;
    const list = answer.data.flatMap((row: unknown) => asQuote(row) ?? []);
    const missing = addedCodes(edits).filter(
      (code) => !list.some((quote) => quote.code.toUpperCase() === code),
    );
    const quotes = await this.quotesOf(missing, languageOf(request), key);
    return withData(
      response,
      applyQueuedEdits(list, edits, (code) => quotes.get(code)),
    );
  }

  /**
   * The quotes of codes added offline, from what the device has: the user's stored list (a code removed
   * and added again), the stored details, then the stored lists (a search's results).
   */
  private async quotesOf(
    codes: readonly string[],
    language: string,
    key: string,
  ): Promise<Map<string, Quote>> {
    const quotes = new Map<string, Quote>();
    for (const code of codes) {
      const known = this.found.get(`${language} ${code}`);
      if (known) quotes.set(code, known);
    }
    const missing = () => codes.filter((code) => !quotes.has(code));
    if (missing().length === 0) return quotes;
    const cache = await this.layer.cache();
    const pools: (() => Promise<unknown[]>)[] = [
      async () => {
        const entry = await cache.readAnswer('config', key);
        return entry ? [entry.data] : [];
      },
      async () => byLanguage(await cache.answers('quotes'), language),
      async () => byLanguage(await cache.answers('lists'), language),
    ];
    for (const pool of pools) {
      if (missing().length === 0) break;
      const datas = await pool().catch(() => []);
      for (const data of datas) {
        for (const code of missing()) {
          const quote = quoteWithin(data, code);
          if (!quote) continue;
          quotes.set(code, quote);
          this.found.set(`${language} ${code}`, quote);
        }
      }
    }
    return quotes;
  }
}

/**
 * GET /user/isOption.do: the station's answer; offline (or while edits wait to be sent) the answer the
 * user's stored list and the queued edits give, marked with the list's time.
 */
export class WatchStateFromList extends Strategy {
  constructor(
    private readonly layer: DataLayer,
    private readonly outbox: Outbox,
  ) {
    super();
  }

  protected override async _handle(request: Request): Promise<Response> {
    const authorization = request.headers.get('Authorization');
    const identity = userIdentity(authorization);
    if (authorization === null || identity === null) return networkOnly(this.layer, request, false);
    if (!this.layer.isOffline()) await this.outbox.flush().catch(() => undefined);
    const edits = await queuedEdits(this.layer, authorization).catch(() => []);
    let network: Response | undefined;
    if (!this.layer.isOffline() && edits.length === 0) {
      network = await networkOnly(this.layer, request, false);
      if (network.type !== 'error') return network;
    }
    const code = (new URL(request.url).searchParams.get('code') ?? '').trim().toUpperCase();
    const entry = await (
      await this.layer.cache()
    )
      .readAnswer('config', listKey(identity, request))
      .catch(() => undefined);
    if (!entry || !Array.isArray(entry.data)) return network ?? networkOnly(this.layer, request, false);
    const codes = entry.data.flatMap((row: unknown) => {
      const quote = asQuote(row);
      return quote ? [{ code: quote.code }] : [];
    });
    const watched = applyQueuedEdits(codes, edits, (added) => ({ code: added })).some(
      (item) => item.code.toUpperCase() === code,
    );
    return cachedAnswer({ watched }, entry.cachedAt);
  }
}

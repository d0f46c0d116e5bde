/**
 * Watchlist edits (addOption.do, delOption.do, option/sort.do), the one kind of call that may wait for the
 * network (ARCHITECTURE "Orders and money"): sent at once when possible, else kept in IndexedDB and sent in
 * order once the network is back (a background sync, the page saying it is online, the next read of the
 * watchlist). A reorder replaces the reorders queued before it: the last one says the whole order.
 */
import { Strategy } from 'workbox-strategies';
import type { DataLayer } from './data-layer';
import { queued } from './responses';
import { WATCHLIST_SORT_PATH } from './watchlist-edits';

export const OUTBOX_SYNC_TAG = 'watchlist-outbox';
/** The request headers the station reads from a watchlist edit. */
const KEPT_HEADERS = ['authorization', 'accept-language', 'content-type', 'accept'];

export class Outbox {
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly layer: DataLayer,
    private readonly fetch: (request: Request) => Promise<Response>,
    private readonly requestSync: () => Promise<void>,
  ) {}

  async keep(request: Request): Promise<void> {
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = request.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    const cache = await this.layer.cache();
    const entry = {
      path: new URL(request.url).pathname,
      body: await request.clone().text(),
      headers,
      queuedAt: Date.now(),
    };
    if (entry.path === WATCHLIST_SORT_PATH) {
      // The station tolerates codes added or removed after the order was given (server/trading/watchlist.ts),
      // so the last reorder alone, sent after the adds and removes before it, gives the same list.
      await cache.enqueueReplacing(
        entry,
        (kept) => kept.path === WATCHLIST_SORT_PATH && kept.headers.authorization === headers.authorization,
      );
    } else {
      await cache.enqueue(entry);
    }
    await this.requestSync().catch(() => undefined);
  }

  /** Whether edits are waiting to be sent. */
  async hasQueued(): Promise<boolean> {
    return (await (await this.layer.cache()).queued()).length > 0;
  }

  /** Sends the kept edits in order; stops at the first that gets no answer (still offline). */
  flush(): Promise<void> {
    this.flushing ??= this.send().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async send(): Promise<void> {
    if (this.layer.isOffline()) return;
    const cache = await this.layer.cache();
    const entries = await cache.queued();
    if (entries.length === 0) return;
    const baseUrl = await this.layer.resolveBaseUrl();
    if (baseUrl === null) return;
    for (const entry of entries) {
      try {
        await this.fetch(
          new Request(`${baseUrl}${entry.path}`, {
            method: 'POST',
            headers: entry.headers,
            body: entry.body,
            credentials: 'include',
          }),
        );
      } catch {
        this.layer.networkFailed(baseUrl);
        return;
      }
      this.layer.answered(baseUrl);
      // Answered: done, whatever the station said (a refused edit is not retried for ever).
      if (entry.id !== undefined) await cache.dequeue(entry.id);
    }
  }
}

/** A watchlist edit: to the network when online, else (or when no answer comes) into the outbox. */
export class QueueWhenOffline extends Strategy {
  constructor(
    private readonly layer: DataLayer,
    private readonly outbox: Outbox,
  ) {
    super();
  }

  protected override async _handle(request: Request): Promise<Response> {
    if (!this.layer.isOffline()) {
      // Sent in order: the edits queued before this one go first (a remove queued offline, then the same
      // code added online, must leave it watched).
      await this.outbox.flush().catch(() => undefined);
      const baseUrl = await this.layer.resolveBaseUrl();
      if (baseUrl !== null && !(await this.outbox.hasQueued().catch(() => true))) {
        try {
          return await this.layer.fetchFromBase(request, baseUrl);
        } catch {
          // No answer: kept and sent again later (adding or removing twice changes nothing).
        }
      }
    }
    await this.outbox.keep(request);
    if (!this.layer.isOffline()) void this.outbox.flush().catch(() => undefined);
    return queued();
  }
}

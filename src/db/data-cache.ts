/**
 * Reading and writing the data layer's IndexedDB (schema.ts) through idb: answers by store, K-line bars
 * merged per chart, settings and the watchlist outbox. Each answer store is bounded in entries and in
 * bytes; a write past a bound evicts the least recently used entries (a read counts as a use).
 */
import { openDB, type IDBPDatabase } from 'idb';
import type { Bar } from '../shared/api/types';
import { mergeBars } from './bars';
import {
  DB_NAME,
  DB_VERSION,
  upgradeSchema,
  type AnswerStore,
  type CachedAnswer,
  type KlineEntry,
  type OutboxEntry,
  type PaperDeskDb,
} from './schema';

export type BoundedStore = AnswerStore | 'klines';

export interface StoreLimit {
  maxEntries: number;
  maxBytes: number;
}

export const STORE_LIMITS: Readonly<Record<BoundedStore, StoreLimit>> = {
  quotes: { maxEntries: 400, maxBytes: 2_000_000 },
  lists: { maxEntries: 200, maxBytes: 4_000_000 },
  klines: { maxEntries: 120, maxBytes: 8_000_000 },
  news: { maxEntries: 300, maxBytes: 3_000_000 },
  articles: { maxEntries: 200, maxBytes: 3_000_000 },
};

/** One chart's identity: the call's family (stock, index, futures; day or minute), code, period, adjustment. */
export interface KlineKey {
  family: string;
  code: string;
  period: string;
  adjust: string;
}

export function klineKey(key: KlineKey): string {
  return `${key.family}|${key.code.toUpperCase()}|${key.period}|${key.adjust}`;
}

/** The first part of the key of every answer that belongs to one user (schema.ts, config store). */
export const USER_ANSWER_PREFIX = 'user:';

/** Bytes-in-use counters live in the config store beside the settings. */
const usageKey = (store: BoundedStore) => `usage:${store}`;

function sizeOf(data: unknown): number {
  return JSON.stringify(data)?.length ?? 0;
}

export interface DataCacheOptions {
  name?: string;
  limits?: Readonly<Record<BoundedStore, StoreLimit>>;
  now?: () => number;
}

export async function openPaperDeskDb(name = DB_NAME): Promise<IDBPDatabase<PaperDeskDb>> {
  return openDB<PaperDeskDb>(name, DB_VERSION, {
    upgrade: (db, oldVersion, newVersion, tx) => upgradeSchema(db, oldVersion, newVersion ?? DB_VERSION, tx),
  });
}

export class DataCache {
  private readonly limits: Readonly<Record<BoundedStore, StoreLimit>>;
  private readonly now: () => number;

  constructor(
    readonly db: IDBPDatabase<PaperDeskDb>,
    options: Omit<DataCacheOptions, 'name'> = {},
  ) {
    this.limits = options.limits ?? STORE_LIMITS;
    this.now = options.now ?? Date.now;
  }

  static async open(options: DataCacheOptions = {}): Promise<DataCache> {
    return new DataCache(await openPaperDeskDb(options.name), options);
  }

  /** The stored answer for `key`, marked as used; undefined when there is none. */
  async readAnswer(store: AnswerStore | 'config', key: string): Promise<CachedAnswer | undefined> {
    const tx = this.db.transaction(store, 'readwrite');
    const entry = await tx.store.get(key);
    if (entry) await tx.store.put({ ...entry, lastUsed: this.now() });
    await tx.done;
    return entry;
  }

  /**
   * Stores an answer's data (replacing the one before) and keeps the store within its bounds; the
   * settings (config) are few and never evicted.
   */
  async writeAnswer(
    store: AnswerStore | 'config',
    key: string,
    data: unknown,
    cachedAt = this.now(),
  ): Promise<void> {
    const entry = { key, data, cachedAt, lastUsed: this.now(), size: sizeOf(data) };
    if (store === 'config') await this.db.put('config', entry);
    else await this.putBounded(store, entry);
  }

  async readBars(key: KlineKey): Promise<KlineEntry | undefined> {
    const tx = this.db.transaction('klines', 'readwrite');
    const entry = await tx.store.get(klineKey(key));
    if (entry) await tx.store.put({ ...entry, lastUsed: this.now() });
    await tx.done;
    return entry;
  }

  /**
   * Adds received bars to a chart's stored bars (or replaces them, for the intraday chart, which is only
   * ever today's) and returns what is now stored.
   */
  async mergeBars(key: KlineKey, bars: readonly Bar[], replace = false): Promise<Bar[]> {
    const id = klineKey(key);
    const stored = replace ? undefined : await this.db.get('klines', id);
    const merged = mergeBars(stored?.data ?? [], bars);
    const now = this.now();
    await this.putBounded('klines', {
      key: id,
      code: key.code.toUpperCase(),
      period: key.period,
      adjust: key.adjust,
      data: merged,
      cachedAt: now,
      lastUsed: now,
      size: sizeOf(merged),
    });
    return merged;
  }

  async getConfig<T>(key: string): Promise<T | undefined> {
    const entry = await this.db.get('config', key);
    return entry?.data as T | undefined;
  }

  async setConfig(key: string, value: unknown): Promise<void> {
    const now = this.now();
    await this.db.put('config', { key, data: value, cachedAt: now, lastUsed: now, size: sizeOf(value) });
  }

  async deleteConfig(key: string): Promise<void> {
    await this.db.delete('config', key);
  }

  /** Bytes the store's entries take (as counted on write). */
  async usage(store: BoundedStore): Promise<number> {
    return (await this.getConfig<number>(usageKey(store))) ?? 0;
  }

  async enqueue(entry: Omit<OutboxEntry, 'id'>): Promise<number> {
    return this.db.add('outbox', entry);
  }

  /** The queued edits, oldest first. */
  async queued(): Promise<OutboxEntry[]> {
    return this.db.getAll('outbox');
  }

  async dequeue(id: number): Promise<void> {
    await this.db.delete('outbox', id);
  }

  /**
   * Queues an edit in place of the queued ones `replaces` picks (a reorder replaces the reorders before
   * it: the last one says the whole order), in one transaction.
   */
  async enqueueReplacing(
    entry: Omit<OutboxEntry, 'id'>,
    replaces: (queued: OutboxEntry) => boolean,
  ): Promise<number> {
    const tx = this.db.transaction('outbox', 'readwrite');
    let cursor = await tx.store.openCursor();
    while (cursor) {
      if (replaces(cursor.value)) await cursor.delete();
      cursor = await cursor.continue();
    }
    const id = await tx.store.add(entry);
    await tx.done;
    return id;
  }

  /** Every answer kept in a store (to look for one instrument's quote among them). */
  async answers(store: AnswerStore): Promise<CachedAnswer[]> {
    return this.db.getAll(store);
  }

  /**
   * Deletes everything that belongs to a user: their answers (the watchlist) and the edits they queued,
   * which carry their token. Run at logout, so the next person on the device sees nothing of theirs.
   */
  async forgetUsers(): Promise<void> {
    const tx = this.db.transaction(['config', 'outbox'], 'readwrite');
    const config = tx.objectStore('config');
    for (const key of await config.getAllKeys()) {
      if (key.startsWith(USER_ANSWER_PREFIX)) await config.delete(key);
    }
    await tx.objectStore('outbox').clear();
    await tx.done;
  }

  /** Puts an entry and evicts least-recently-used ones past the store's bounds, in one transaction. */
  private async putBounded(store: BoundedStore, entry: CachedAnswer | KlineEntry): Promise<void> {
    const limit = this.limits[store];
    const tx = this.db.transaction([store, 'config'], 'readwrite');
    const entries = tx.objectStore(store);
    const config = tx.objectStore('config');
    const usageEntry = await config.get(usageKey(store));
    let usage = typeof usageEntry?.data === 'number' ? usageEntry.data : 0;
    const previous = await entries.get(entry.key);
    usage += entry.size - (previous?.size ?? 0);
    await entries.put(entry);
    let count = await entries.count();
    if (count > limit.maxEntries || usage > limit.maxBytes) {
      let cursor = await entries.index('lastUsed').openCursor();
      while (cursor && (count > limit.maxEntries || usage > limit.maxBytes)) {
        // The entry just written stays even when it alone is past the byte bound.
        if (cursor.value.key !== entry.key) {
          usage -= cursor.value.size;
          count -= 1;
          await cursor.delete();
        }
        cursor = await cursor.continue();
      }
    }
    const now = this.now();
    await config.put({
      key: usageKey(store),
      data: Math.max(0, usage),
      cachedAt: now,
      lastUsed: now,
      size: 0,
    });
    await tx.done;
  }
}

/**
 * The IndexedDB schema of the data layer (ARCHITECTURE "How data flows"): answers of the station kept for
 * offline reading, K-line bars per code, period and adjustment, the service worker's settings (the base
 * URL) and the watchlist edits waiting to be sent. Used by the service worker; the app never needs it on
 * its start-up path. legend-state keeps its own database (CONVENTIONS "known traps").
 */
import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import type { Bar } from '../shared/api/types';

export const DB_NAME = 'paperdesk-data';

/** One stored answer: the envelope's `data`, when it was stored and when it was last read. */
export interface CachedAnswer {
  /** The request's identity: language, path and sorted query (see `answerKey`). */
  key: string;
  data: unknown;
  /** Epoch ms the station gave this answer. */
  cachedAt: number;
  /** Epoch ms of the last write or read: least-recently-used eviction goes by it. */
  lastUsed: number;
  /** Approximate bytes (JSON length), for the store's size bound. */
  size: number;
}

/** The bars of one chart: one instrument, one period, one adjustment, merged as new bars come. */
export interface KlineEntry extends CachedAnswer {
  code: string;
  period: string;
  adjust: string;
  data: Bar[];
}

/** A watchlist edit made offline, sent once the network is back (ARCHITECTURE: the one queued mutation). */
export interface OutboxEntry {
  id?: number;
  /** The API path, e.g. /user/addOption.do. */
  path: string;
  /** The form-encoded body as sent. */
  body: string;
  /** The headers the request carried that the station reads (token, language, content type). */
  headers: Record<string, string>;
  queuedAt: number;
}

export interface PaperDeskDb extends DBSchema {
  /** Single quotes and instrument details. */
  quotes: { key: string; value: CachedAnswer; indexes: { lastUsed: number } };
  /** Market lists: boards, rankings, index and futures lists, searches. */
  lists: { key: string; value: CachedAnswer; indexes: { lastUsed: number } };
  /**
   * Settings and the service worker's own facts (the base URL); small, never evicted. Also the answers
   * that belong to one user (their watchlist), keyed `user:<hash of the session's token> <answer key>`,
   * so no user ever reads another's, and all of them are deleted at logout (`DataCache.forgetUsers`).
   */
  config: { key: string; value: CachedAnswer };
  klines: { key: string; value: KlineEntry; indexes: { lastUsed: number; code: string } };
  /** News and notices: lists and details. */
  news: { key: string; value: CachedAnswer; indexes: { lastUsed: number } };
  /** Articles (college) and site pages: lists and details. */
  articles: { key: string; value: CachedAnswer; indexes: { lastUsed: number } };
  outbox: { key: number; value: OutboxEntry };
}

export type AnswerStore = 'quotes' | 'lists' | 'news' | 'articles';
export type StoreName = StoreNames<PaperDeskDb>;

type UpgradeTx = IDBPTransaction<PaperDeskDb, StoreName[], 'versionchange'>;
type Migration = (db: IDBPDatabase<PaperDeskDb>, tx: UpgradeTx) => void;

/**
 * One migration per version, applied in order from the version a browser has: version n is
 * `MIGRATIONS[n - 1]`. Only ever append; a released step never changes.
 */
export const MIGRATIONS: readonly Migration[] = [
  // 1: quotes, market lists and config.
  (db) => {
    db.createObjectStore('quotes', { keyPath: 'key' }).createIndex('lastUsed', 'lastUsed');
    db.createObjectStore('lists', { keyPath: 'key' }).createIndex('lastUsed', 'lastUsed');
    db.createObjectStore('config', { keyPath: 'key' });
  },
  // 2: K-lines, news and articles.
  (db) => {
    const klines = db.createObjectStore('klines', { keyPath: 'key' });
    klines.createIndex('lastUsed', 'lastUsed');
    klines.createIndex('code', 'code');
    db.createObjectStore('news', { keyPath: 'key' }).createIndex('lastUsed', 'lastUsed');
    db.createObjectStore('articles', { keyPath: 'key' }).createIndex('lastUsed', 'lastUsed');
  },
  // 3: the watchlist outbox.
  (db) => {
    db.createObjectStore('outbox', { keyPath: 'id', autoIncrement: true });
  },
];

export const DB_VERSION = MIGRATIONS.length;

/** Runs the migrations after `oldVersion` up to `newVersion`. */
export function upgradeSchema(
  db: IDBPDatabase<PaperDeskDb>,
  oldVersion: number,
  newVersion: number,
  tx: UpgradeTx,
): void {
  for (let version = oldVersion + 1; version <= newVersion; version++) {
    MIGRATIONS[version - 1]?.(db, tx);
  }
}

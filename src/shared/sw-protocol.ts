/**
 * What the app and its service worker say to each other: the headers the service worker puts on answers
 * it makes itself, and the messages the page posts to it. One place, so both sides agree.
 */

/** On an answer read from IndexedDB: when the station gave it (ISO 8601). */
export const CACHED_AT_HEADER = 'X-Cached-At';
/** On the answer to a call that was not sent because the device is offline (nothing reached the station). */
export const NOT_SENT_HEADER = 'X-PaperDesk-Not-Sent';
/** On the answer to a call made while no base URL answers (spec §8: cannot connect). */
export const UNREACHABLE_HEADER = 'X-PaperDesk-Unreachable';
/**
 * On the answer to a read that got no answer while the stored one is too old to show as current (ISO 8601,
 * when the station gave the stored one): the screen says so and offers a retry.
 */
export const TOO_OLD_HEADER = 'X-PaperDesk-Too-Old';
/** On the answer to a watchlist edit kept to be sent once back online. */
export const QUEUED_HEADER = 'X-PaperDesk-Queued';

export type PageToWorker =
  | { type: 'SKIP_WAITING' }
  /** Answered on the message's port with `BaseUrlAnswer`, discovering first if none is known. */
  | { type: 'GET_BASE_URL' }
  /** Forgets the base URL and runs the discovery again (the cannot-connect page's retry). */
  | { type: 'DISCOVER' }
  /** The page's view of the network (navigator.onLine and its events). */
  | { type: 'NETWORK_STATE'; online: boolean }
  /** Answered on the message's port with `VersionAnswer`. */
  | { type: 'GET_VERSION' }
  /**
   * Fetches the built files the first screens did not need (src/sw/shell.ts), if not done yet; answered
   * on the message's port with `OfflineReadyAnswer` once every screen opens offline, or the link failed.
   */
  | { type: 'OFFLINE_READY' };

export interface BaseUrlAnswer {
  baseUrl: string | null;
  /** No base URL, and no source has answered for the stated time (the page shows "cannot connect"). */
  unreachable?: boolean;
  /** What the app waits for an answer from: the last base URL tried and the config files. */
  waitingFor?: string[];
}

export interface OfflineReadyAnswer {
  ready: boolean;
}

export interface VersionAnswer {
  build: string;
}

/** Posted by the worker to every page when the base URL changes. */
export interface BaseUrlChanged {
  type: 'BASE_URL';
  baseUrl: string | null;
  unreachable?: boolean;
  waitingFor?: string[];
}

export function isPageToWorker(data: unknown): data is PageToWorker {
  return typeof data === 'object' && data !== null && typeof (data as { type?: unknown }).type === 'string';
}

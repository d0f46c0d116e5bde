/**
 * The watchlist offline, as plain data: whose stored list an answer is (a hash of the session's
 * token), and the list as it will be once the queued edits reach the station — applied the way the
 * station applies them (server/trading/watchlist.ts), so what the screen shows offline is what it gets
 * back online.
 */
import type { Quote } from '../shared/api/types';
import { sha256 } from '../shared/sha256';
import { USER_ANSWER_PREFIX } from '../db/data-cache';

export const WATCHLIST_LIST_PATH = '/user/option/list.do';
export const WATCHLIST_STATE_PATH = '/user/isOption.do';
export const WATCHLIST_ADD_PATH = '/user/addOption.do';
export const WATCHLIST_REMOVE_PATH = '/user/delOption.do';
export const WATCHLIST_SORT_PATH = '/user/option/sort.do';
/** The edits the outbox may keep while offline (ARCHITECTURE "Orders and money": the one exception). */
export const WATCHLIST_EDIT_PATHS: ReadonlySet<string> = new Set([
  WATCHLIST_ADD_PATH,
  WATCHLIST_REMOVE_PATH,
  WATCHLIST_SORT_PATH,
]);

/** Who a request speaks for: the SHA-256 (hex) of its Authorization header; null without one. */
export function userIdentity(authorization: string | null): string | null {
  if (!authorization) return null;
  const digest = sha256(new TextEncoder().encode(authorization));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The key of one user's stored answer: never the same as another user's, all under one prefix. */
export function userAnswerKey(identity: string, answerKey: string): string {
  return `${USER_ANSWER_PREFIX}${identity} ${answerKey}`;
}

/** A queued edit as the outbox keeps it: its path and its form-encoded body. */
export interface WatchlistEdit {
  path: string;
  body: string;
}

const codeOf = (raw: string | null): string => (raw ?? '').trim().toUpperCase();

/** The codes a queued add names, in order. */
export function addedCodes(edits: readonly WatchlistEdit[]): string[] {
  return edits
    .filter((edit) => edit.path === WATCHLIST_ADD_PATH)
    .map((edit) => codeOf(new URLSearchParams(edit.body).get('code')))
    .filter((code) => code !== '');
}

/**
 * `items` put in the order `codes` gives (top first), as the station reorders: codes not given (added
 * meanwhile) stay above in their order, codes given but not there are skipped. A code given twice is
 * refused by the station: nothing changes.
 */
export function arranged<T extends { code: string }>(items: readonly T[], codes: string): T[] {
  const wanted = codes
    .split(',')
    .map(codeOf)
    .filter((code) => code !== '');
  if (new Set(wanted).size !== wanted.length) return [...items];
  const given = new Set(wanted);
  const byCode = new Map(items.map((item) => [item.code.toUpperCase(), item]));
  return [
    ...items.filter((item) => !given.has(item.code.toUpperCase())),
    ...wanted.flatMap((code) => byCode.get(code) ?? []),
  ];
}

/**
 * The list once `edits` (oldest first) are applied: an add puts the code on top unless it is there
 * already (its item from `list`, else `itemOf`; a code with none is left out until the station answers), a remove
 * takes it out, a reorder arranges the list.
 */
export function applyQueuedEdits<T extends { code: string }>(
  list: readonly T[],
  edits: readonly WatchlistEdit[],
  itemOf: (code: string) => T | undefined,
): T[] {
  let items = [...list];
  // A code removed and added again while offline is on the stored list already: its item is there, not
  // only in itemOf (without it the re-added code vanished, and a reorder made after it lacked it).
  const known = new Map(list.map((item) => [item.code.toUpperCase(), item]));
  for (const edit of edits) {
    const params = new URLSearchParams(edit.body);
    if (edit.path === WATCHLIST_SORT_PATH) {
      items = arranged(items, params.get('codes') ?? '');
      continue;
    }
    const code = codeOf(params.get('code'));
    if (code === '') continue;
    const at = items.findIndex((item) => item.code.toUpperCase() === code);
    if (edit.path === WATCHLIST_REMOVE_PATH) {
      if (at >= 0) items.splice(at, 1);
    } else if (edit.path === WATCHLIST_ADD_PATH && at < 0) {
      const item = known.get(code) ?? itemOf(code);
      if (item) items.unshift(item);
    }
  }
  return items;
}

const QUOTE_NUMBERS = [
  'price',
  'prevClose',
  'open',
  'high',
  'low',
  'change',
  'changePct',
  'volume',
  'turnover',
  'time',
] as const;

/** `value` as a Quote (only a Quote's fields), when it is one: a detail answer or a row of a list. */
export function asQuote(value: unknown): Quote | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const { code, name, market } = record;
  if (typeof code !== 'string' || typeof name !== 'string' || typeof market !== 'string') return undefined;
  const quote: Record<string, unknown> = { code, name, market };
  for (const field of QUOTE_NUMBERS) {
    if (typeof record[field] !== 'number') return undefined;
    quote[field] = record[field];
  }
  return quote as unknown as Quote;
}

/**
 * The quote of `code` within a stored answer's data: the answer itself (a detail), a row of a list, or a
 * row of a page's `list`.
 */
export function quoteWithin(data: unknown, code: string): Quote | undefined {
  const rows: unknown[] = Array.isArray(data)
    ? data
    : typeof data === 'object' && data !== null && Array.isArray((data as { list?: unknown }).list)
      ? (data as { list: unknown[] }).list
      : [data];
  for (const row of rows) {
    const quote = asQuote(row);
    if (quote && quote.code.toUpperCase() === code) return quote;
  }
  return undefined;
}

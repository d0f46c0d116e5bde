/**
 * The app's one data layer for station calls (ARCHITECTURE "How data flows"; CONVENTIONS.md "TanStack
 * Query's examples"): screens read with `useStationQuery` / `useStationPages` and change with
 * `useStationMutation`, whose success invalidates exactly the queries of INVALIDATES (query-keys.ts).
 * The cache and its settings are query-client.ts's.
 */
import { useMemo } from 'react';
import { useSelector } from '@legendapp/state/react';
import {
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  type QueryKey,
  type UseMutationResult,
} from '@tanstack/react-query';
import type { Page } from '../../shared/api/types';
import type { CallIn, CallOut } from '../../shared/api/calls';
import { call, toApiError } from './client';
import type { ApiError } from './errors';
import { invalidateAfter, rethrowAsApiError } from './query-client';
import {
  callPrefix,
  queryKeyOf,
  takesRequestId,
  type MutationCallKey,
  type QueryCallKey,
} from './query-keys';
import { locale$ } from '../state/locale';
import { sendMoneyCall } from './outcome';
import { intentKey, requestIdFor } from './request-id';

export { invalidateAfter, queryClient } from './query-client';

/** The language the station answers in (Accept-Language), part of every query key (query-keys.ts). */
function useLocale(): string {
  return useSelector(() => locale$.get());
}

/** The cache key a screen's query of `key` with `input` has now, in the current language. */
export function useQueryKey<K extends QueryCallKey>(key: K, input: CallIn<K>): QueryKey {
  return queryKeyOf(key, input, useLocale());
}

/** What a screen reads of one call: the answer, the last failure beside it, first load and a retry. */
export interface StationQuery<T> {
  data: T | undefined;
  /** The last failure; kept beside older data when a refresh fails, so a screen can still show the data. */
  error: ApiError | undefined;
  /** True until the first answer (or failure) for the current input; false while there is no input. */
  loading: boolean;
  /** Asks the station again (pull to refresh, the retry button). */
  reload: () => void;
}

export interface StationQueryOptions {
  /**
   * Polls while the page is visible; only for what the live stream does not push (live-quotes.ts
   * streamCarries) and what only the station knows changed (an order filling, a message arriving).
   */
  refetchInterval?: number;
  /** A changed input keeps the previous answer on screen until the new one arrives. */
  keepPrevious?: boolean;
}

/**
 * The query of one call with `input` in `locale`: its key and how it asks. The one definition both a screen
 * (useStationQuery) and a route's preload (prefetch.ts) use, so a preloaded answer is the one the screen reads.
 */
export function stationQueryOptions<K extends QueryCallKey>(key: K, input: CallIn<K>, locale: string) {
  return queryOptions<CallOut<K>, ApiError, CallOut<K>, QueryKey>({
    queryKey: queryKeyOf(key, input, locale),
    queryFn: ({ signal }) => call(key, input, { signal }).catch(rethrowAsApiError),
  });
}

/** One call's answer, cached by call and input; `input` null means "not now" (e.g. logged out). */
export function useStationQuery<K extends QueryCallKey>(
  key: K,
  input: CallIn<K> | null,
  options: StationQueryOptions = {},
): StationQuery<CallOut<K>> {
  const locale = useLocale();
  const query = useQuery<CallOut<K>, ApiError, CallOut<K>, QueryKey>({
    ...(input === null
      ? {
          queryKey: callPrefix(key),
          queryFn: ({ signal }) => call(key, input!, { signal }).catch(rethrowAsApiError),
        }
      : stationQueryOptions(key, input, locale)),
    enabled: input !== null,
    refetchInterval: options.refetchInterval,
    placeholderData: options.keepPrevious ? keepPreviousData : undefined,
  });
  return {
    data: query.data,
    error: query.error ?? undefined,
    loading: input !== null && query.isPending && query.fetchStatus !== 'idle',
    reload: () => void query.refetch(),
  };
}

export interface StationPages<T> {
  items: T[];
  total: number;
  error: ApiError | undefined;
  /** The first page is loading. */
  loading: boolean;
  /** A further page is loading. */
  loadingMore: boolean;
  hasMore: boolean;
  loadMore: () => void;
  reload: () => void;
}

/** The calls that answer a page (API.md "Paging"). */
type PagedCallKey = {
  [K in QueryCallKey]: CallOut<K> extends Page<unknown> ? K : never;
}[QueryCallKey];
/** What one row of a paged call is. */
type PageItem<K extends QueryCallKey> = CallOut<K> extends Page<infer T> ? T : never;
/** A paged call's input without the page number, which the list supplies. */
type PagedIn<K extends QueryCallKey> = Omit<CallIn<K>, 'pageNum'>;

/** Where a paged list starts, when its first rows come from elsewhere. */
export interface StationPagesOptions {
  /**
   * The page number the list's first page has (default 1): a list whose head is another query's (the
   * market list's first hundred rows) continues from the page after it.
   */
  firstPage?: number;
}

/**
 * A paged list (API.md "Paging") that grows page after page on "load more" (an infinite query). `input`
 * (with its pageSize) identifies the list; null means "not now". `firstAnswer` is the list's first page as
 * the station gave it, for what a page carries beside its rows (the unread count of the messages).
 */
export function useStationPages<K extends PagedCallKey>(
  key: K,
  input: PagedIn<K> | null,
  options: StationPagesOptions = {},
): StationPages<PageItem<K>> & { firstAnswer: CallOut<K> | undefined } {
  type T = PageItem<K>;
  const firstPage = options.firstPage ?? 1;
  const locale = useLocale();
  const query = useInfiniteQuery<Page<T>, ApiError, { pages: Page<T>[] }, QueryKey, number>({
    queryKey:
      input === null ? callPrefix(key) : [...queryKeyOf(key, input as CallIn<K>, locale), { firstPage }],
    queryFn: ({ signal, pageParam }) =>
      (call(key, { ...input, pageNum: pageParam } as CallIn<K>, { signal }) as Promise<Page<T>>).catch(
        rethrowAsApiError,
      ),
    initialPageParam: firstPage,
    getNextPageParam: (last, pages) => {
      // The rows before the first page count too: the total is the whole list's.
      const before = (firstPage - 1) * last.pageSize;
      const loaded = before + pages.reduce((n, page) => n + page.list.length, 0);
      return loaded < last.total && last.list.length > 0 ? firstPage + pages.length : undefined;
    },
    enabled: input !== null,
  });
  const pages = query.data?.pages;
  // One array per answer, not per render: screens key effects on the rows.
  const items = useMemo(() => (pages ?? []).flatMap((page) => page.list), [pages]);
  return {
    items,
    total: pages?.at(-1)?.total ?? 0,
    firstAnswer: pages?.[0] as CallOut<K> | undefined,
    error: query.error ?? undefined,
    loading: input !== null && query.isPending && query.fetchStatus !== 'idle',
    loadingMore: query.isFetchingNextPage,
    hasMore: query.hasNextPage && !query.isFetching,
    loadMore: () => void query.fetchNextPage(),
    reload: () => void query.refetch(),
  };
}

/** A change's input as the screen gives it: the requestId is the mutation's own. */
export type IntentIn<K extends MutationCallKey> =
  CallIn<K> extends { requestId: string } ? Omit<CallIn<K>, 'requestId'> : CallIn<K>;

/**
 * One change on the station. A call that takes a requestId (API.md "Idempotency") gets one per user
 * intent (request-id.ts): a retry of the same input after no answer, or the same input from a sheet opened
 * again within the window, reuses it, so the station does it at most once; a changed input, an answer or a
 * refusal starts a new intent. On success the queries it changed are
 * invalidated; `pending` replaces the screens' own busy flags.
 */
export function useStationMutation<K extends MutationCallKey>(
  key: K,
  options: {
    onSuccess?: (data: CallOut<K>, input: IntentIn<K>) => void;
    /** The station refused or could not be reached; `error` shows it too. */
    onError?: (error: ApiError, input: IntentIn<K>) => void;
    /** After either. */
    onSettled?: () => void;
  } = {},
): UseMutationResult<CallOut<K>, ApiError, IntentIn<K>> {
  const { onSuccess, onError, onSettled } = options;
  const mutation = useMutation<CallOut<K>, ApiError, IntentIn<K>>({
    mutationKey: [key],
    mutationFn: async (input) => {
      if (!takesRequestId(key)) {
        try {
          return await call(key, input as CallIn<K>);
        } catch (error) {
          throw toApiError(error);
        }
      }
      // A call that moves money or positions: a lost answer is looked up by its requestId (outcome.ts,
      // shown meanwhile by the pending strip), never reported as a failure.
      const intent = intentKey(key, input);
      const sent = { ...input, requestId: requestIdFor(intent) } as CallIn<K> & { requestId: string };
      try {
        return await sendMoneyCall(key, sent, { intent });
      } catch (error) {
        throw toApiError(error);
      }
    },
    onSuccess: (data, input) => {
      // Not awaited: the change is done; the screens showing what it changed refetch beside the next step.
      void invalidateAfter(key);
      onSuccess?.(data, input);
    },
    onError: (error, input) => onError?.(error, input),
    onSettled: () => onSettled?.(),
  });
  return mutation;
}

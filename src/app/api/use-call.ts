import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import type { Page } from '../../shared/api/types';
import type { CallIn, CallKey, CallOut } from '../../shared/api/calls';
import { call, toApiError } from './client';
import { isAbortError, type ApiError } from './errors';

export interface CallState<T> {
  data: T | undefined;
  /** The last failure; kept beside stale data when a refresh fails, so a screen can still show the data. */
  error: ApiError | undefined;
  /** True until the first answer (or failure) for the current input. */
  loading: boolean;
  reload: () => void;
}

interface Loaded<T> {
  id: string | null;
  data?: T;
  error?: ApiError;
}

/** Re-runs only while the page is visible, so a phone in a pocket does not poll. */
function isPageVisible(): boolean {
  return typeof document === 'undefined' || document.visibilityState === 'visible';
}

/**
 * Loads one call for a screen, aborts it when the screen goes away or the input changes, and, with
 * `refreshMs`, repeats it while the page is visible. `input` null means "not now" (e.g. logged out).
 * With `keepPrevious`, a changed input keeps the previous answer on screen until the new one arrives (a
 * list growing by infinite scroll must not turn into a spinner and lose the reader's place).
 */
export function useCall<K extends CallKey>(
  key: K,
  input: CallIn<K> | null,
  options: { refreshMs?: number; keepPrevious?: boolean } = {},
): CallState<CallOut<K>> {
  const inputKey = input === null ? null : JSON.stringify(input);
  const id = inputKey === null ? null : `${key} ${inputKey}`;
  const [loaded, setLoaded] = useState<Loaded<CallOut<K>>>({ id: null });
  const [generation, setGeneration] = useState(0);
  const { refreshMs, keepPrevious = false } = options;

  useEffect(() => {
    if (inputKey === null) return;
    const thisId = `${key} ${inputKey}`;
    const parsedInput = JSON.parse(inputKey) as CallIn<K>;
    let inFlight: AbortController | null = null;
    let disposed = false;

    const run = async () => {
      if (inFlight) return;
      const controller = new AbortController();
      inFlight = controller;
      try {
        const data = await call(key, parsedInput, { signal: controller.signal });
        // An answer renders as a transition: React slices a big screen's render instead of one long task.
        if (!disposed) startTransition(() => setLoaded({ id: thisId, data }));
      } catch (error) {
        if (disposed || isAbortError(error)) return;
        const apiError = toApiError(error);
        startTransition(() =>
          setLoaded((prev) => ({
            id: thisId,
            data: prev.id === thisId || keepPrevious ? prev.data : undefined,
            error: apiError,
          })),
        );
      } finally {
        inFlight = null;
      }
    };

    void run();
    const timer =
      refreshMs === undefined
        ? undefined
        : setInterval(() => {
            if (isPageVisible()) void run();
          }, refreshMs);
    return () => {
      disposed = true;
      inFlight?.abort();
      clearInterval(timer);
    };
  }, [key, inputKey, generation, refreshMs, keepPrevious]);

  const reload = useCallback(() => {
    setLoaded((prev) => ({ ...prev, error: undefined }));
    setGeneration((g) => g + 1);
  }, []);

  const current: Loaded<CallOut<K>> =
    loaded.id === id
      ? loaded
      : keepPrevious && id !== null && loaded.data !== undefined
        ? { id, data: loaded.data }
        : { id };
  return {
    data: current.data,
    error: current.error,
    loading: id !== null && current.data === undefined && current.error === undefined,
    reload,
  };
}

export interface PagesState<T> {
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

interface PagesLoaded<T> {
  key: string | null;
  items: T[];
  total: number;
  pagesLoaded: number;
  busy: boolean;
  error?: ApiError;
}

/**
 * A paged list (API.md "Paging") that appends page after page on "load more". `listKey` identifies the
 * list (a new key starts again from page 1; null means "not now"); `fetchPage` is read when a page is
 * needed, so it may be a fresh closure on every render.
 */
export function usePages<T>(
  listKey: string | null,
  fetchPage: (pageNum: number, signal: AbortSignal) => Promise<Page<T>>,
): PagesState<T> {
  const [state, setState] = useState<PagesLoaded<T>>({
    key: null,
    items: [],
    total: 0,
    pagesLoaded: 0,
    busy: false,
  });
  const fetchRef = useRef(fetchPage);
  const controllerRef = useRef<AbortController | null>(null);
  useEffect(() => {
    fetchRef.current = fetchPage;
  });

  const load = useCallback(
    (pageNum: number) => {
      if (listKey === null) return;
      controllerRef.current?.abort();
      const controller = new AbortController();
      controllerRef.current = controller;
      setState((prev) =>
        pageNum === 1 || prev.key !== listKey
          ? { key: listKey, items: [], total: 0, pagesLoaded: 0, busy: true }
          : { ...prev, busy: true, error: undefined },
      );
      fetchRef.current(pageNum, controller.signal).then(
        (page) => {
          if (controller.signal.aborted) return;
          startTransition(() =>
            setState((prev) => ({
              key: listKey,
              items: pageNum === 1 ? page.list : [...prev.items, ...page.list],
              total: page.total,
              pagesLoaded: pageNum,
              busy: false,
            })),
          );
        },
        (error: unknown) => {
          if (controller.signal.aborted || isAbortError(error)) return;
          setState((prev) => ({ ...prev, busy: false, error: toApiError(error) }));
        },
      );
    },
    [listKey],
  );

  useEffect(() => {
    load(1);
    return () => controllerRef.current?.abort();
  }, [load]);

  const current: PagesLoaded<T> =
    state.key === listKey
      ? state
      : { key: listKey, items: [], total: 0, pagesLoaded: 0, busy: listKey !== null };
  const { pagesLoaded } = current;
  const loadMore = useCallback(() => load(pagesLoaded + 1), [load, pagesLoaded]);
  const reload = useCallback(() => load(1), [load]);

  return {
    items: current.items,
    total: current.total,
    error: current.error,
    loading: current.busy && current.pagesLoaded === 0,
    loadingMore: current.busy && current.pagesLoaded > 0,
    hasMore: !current.busy && current.items.length < current.total,
    loadMore,
    reload,
  };
}

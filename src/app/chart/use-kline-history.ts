import { useEffect, useState, type RefObject } from 'react';
import type { Adjust, Bar, Market, Quote } from '../../shared/api/types';
import { toApiError } from '../api/client';
import { isAbortError } from '../api/errors';
import { streamCarries, subscribeQuotes } from '../api/live-quotes';
import { mergeRows } from './bars-in-view';
import { BarGapError, type ChartPalette, type ChartView, type KlinePatch } from './bridge';
import { LIVE_REFRESH_MS, labelStyleOf, loadBars, loadLatestBars, type ChartPeriod } from './kline-data';
import { planTick } from './live-bars';
import type { ChartSurface } from './use-chart-surface';

/** What is drawn: the history's key, its mode and bar count, and its latest bar (the readout's default). */
export interface LoadedHistory {
  /** code|period|adjust: a new key is a new history (the zoom resets), the same key a live update. */
  key: string;
  mode: 'kline' | 'intraday';
  count: number;
  last: KlinePatch | null;
  version: number;
}

export interface KlineHistoryOptions {
  surface: ChartSurface;
  /** code|period|adjust of the history to show. */
  historyKey: string;
  code: string;
  market: Market;
  period: ChartPeriod;
  timeZone?: string;
  /** The up and down colours the worker shapes volume bars with. */
  up: string;
  down: string;
  /** The latest look, for the draw that follows a load (which must not wait for a re-render). */
  lookRef: RefObject<{ view: ChartView; palette: ChartPalette }>;
}

export interface KlineHistory {
  /** The drawn history of this key, null while it loads. */
  current: LoadedHistory | null;
  /** The page's copy of its bars, live rows merged in (for the text summary and the table). */
  rows: readonly Bar[];
  failure: Error | null;
}

/** Resolves in a later task (a zero timeout); rejects with an AbortError when `signal` fires first. */
function nextTask(signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, 0);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new DOMException('The chart load was aborted', 'AbortError'));
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Loads a chart's history into the worker and draws it, then keeps its last bar live: streamed quotes go
 * through the worker's updateLastBar / appendBar; while the stream is not connected, the latest bars are
 * read every few seconds instead (the polling fallback). A gap in the bars loads the history again.
 */
export function useKlineHistory({
  surface,
  historyKey: key,
  code,
  market,
  period,
  timeZone,
  up,
  down,
  lookRef,
}: KlineHistoryOptions): KlineHistory {
  const { hostRef, chartRef, resetView } = surface;
  const [loaded, setLoaded] = useState<LoadedHistory | null>(null);
  const [failure, setFailure] = useState<Error | null>(null);
  /** The loaded history (for the text summary and the table), by the key it was loaded for. */
  const [history, setHistory] = useState<{ key: string; rows: readonly Bar[] } | null>(null);
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    const mounted = chartRef.current;
    const host = hostRef.current;
    if (!mounted || !host) return;
    const { chart, attached } = mounted;
    const controller = new AbortController();
    const { signal } = controller;
    const [, , adjustOfKey] = key.split('|') as [string, ChartPeriod, Adjust];
    let timer: ReturnType<typeof setInterval> | undefined;
    let refreshing = false;
    let refreshAgain = false;
    let unsubscribe: (() => void) | undefined;
    let previousQuote: Quote | undefined;
    host.setAttribute('data-ready', 'false');
    host.setAttribute('data-live', 'off');
    setFailure(null);
    resetView();

    // The page's copy of the history follows the live rows too (the text summary and the table read it).
    const keepRows = (rows: readonly Bar[]) =>
      setHistory((h) => (h && h.key === key ? { key, rows: mergeRows(h.rows, rows) } : h));

    const show = (patches: readonly KlinePatch[]) => {
      const last = patches.at(-1);
      if (last) {
        setLoaded((l) =>
          l && l.key === key ? { ...l, count: last.index + 1, last, version: l.version + 1 } : l,
        );
      }
    };
    const onFailure = (error: unknown) => {
      // Bars went missing while the page was away: load the history again. Any other failure keeps the
      // chart as it is, and the next tick or refresh tries again.
      if (error instanceof BarGapError) setReloads((n) => n + 1);
    };

    // Reads the latest bars and feeds them; a request made while one runs is served by one more read.
    const refresh = async () => {
      if (document.visibilityState !== 'visible' || signal.aborted) return;
      if (refreshing) {
        refreshAgain = true;
        return;
      }
      refreshing = true;
      try {
        do {
          refreshAgain = false;
          const rows = await loadLatestBars(code, market, period, adjustOfKey, signal);
          keepRows(rows);
          show(await chart.feed(rows, signal));
        } while (refreshAgain && !signal.aborted);
      } catch (error) {
        onFailure(error);
      } finally {
        refreshing = false;
      }
    };

    const onQuote = async (quote: Quote) => {
      const plan = planTick(period, adjustOfKey, timeZone, previousQuote, quote);
      previousQuote = quote;
      if (plan.kind === 'none') return;
      if (plan.kind === 'refresh') return refresh();
      try {
        const result = await chart.feedTick((last) => {
          const next = plan.next(last);
          if (Array.isArray(next)) keepRows([next]);
          return next;
        }, signal);
        if (result === 'refresh') await refresh();
        else show(result);
      } catch (error) {
        onFailure(error);
      }
    };

    const setPolling = (on: boolean) => {
      if (on && timer === undefined) timer = setInterval(() => void refresh(), LIVE_REFRESH_MS);
      if (!on && timer !== undefined) {
        clearInterval(timer);
        timer = undefined;
      }
    };

    void (async () => {
      try {
        // The request starts in a task of its own: a fetch costs the main thread a few milliseconds, which
        // should not add to the render (or the mount) that asked for it.
        await nextTask(signal);
        const rows = await loadBars(code, market, period, adjustOfKey, signal);
        setHistory({ key, rows });
        const summary = await chart.load(rows, {
          mode: period === 'intraday' ? 'intraday' : 'kline',
          labelStyle: labelStyleOf(period),
          timeZone,
          colors: { up, down },
          signal,
        });
        await attached;
        const look = lookRef.current;
        await chart.draw(look.view, look.palette, true, signal);
        setLoaded({ key, mode: summary.mode, count: summary.count, last: summary.last, version: 0 });
        if (signal.aborted) return;
        if (!streamCarries(market)) {
          host.setAttribute('data-live', 'polling');
          setPolling(true);
          return;
        }
        unsubscribe = subscribeQuotes(code, {
          quote: (tick) => void onQuote(tick.quote),
          status: (status) => {
            host.setAttribute('data-live', status === 'live' ? 'stream' : 'polling');
            // Polling only while the stream is not connected (a hidden page does neither).
            setPolling(status !== 'live' && status !== 'paused');
          },
          gap: () => void refresh(),
        });
      } catch (error) {
        if (!isAbortError(error)) setFailure(error instanceof Error ? error : toApiError(error));
      }
    })();

    return () => {
      controller.abort();
      unsubscribe?.();
      setPolling(false);
    };
  }, [key, code, market, period, timeZone, up, down, reloads, resetView, chartRef, hostRef, lookRef]);

  const current = loaded && loaded.key === key ? loaded : null;
  // What the tests and the bench wait for: the drawn period, its bars and its last candle.
  useEffect(() => {
    const host = hostRef.current;
    if (!host || !current) return;
    host.setAttribute('data-period', key.split('|')[1]!);
    host.setAttribute('data-adjust', key.split('|')[2]!);
    host.setAttribute('data-bars', String(current.count));
    host.setAttribute('data-last-candle', current.last ? current.last.candle.join(',') : '');
    host.setAttribute('data-version', String(current.version));
    host.setAttribute('data-ready', 'true');
  }, [current, key, hostRef]);

  const rows = history && current && history.key === key ? history.rows : NO_ROWS;
  return { current, rows, failure: failure ?? surface.attachFailure };
}

const NO_ROWS: readonly Bar[] = [];

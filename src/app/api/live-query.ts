/**
 * Live stream ticks into the query cache (ARCHITECTURE "How data flows"): a screen that shows a quote
 * from a query gets each tick written into that query's cached answer in place, so every reader of the
 * key moves with the stream and nothing is polled while the stream is live. While it is not (connecting,
 * down, a browser without EventSource) the caller's query polls instead.
 */
import { useEffect, useState } from 'react';
import type { QueryKey } from '@tanstack/react-query';
import type { Quote } from '../../shared/api/types';
import { subscribeQuotes } from './live-quotes';
import { queryClient } from './query-client';

/** The fields of a quote the stream moves; the rest of a cached answer (limits, lot size…) stays. */
function moved<T extends Quote>(cached: T, tick: Quote): T {
  if (cached.price === tick.price && cached.change === tick.change && cached.changePct === tick.changePct) {
    return cached;
  }
  return {
    ...cached,
    price: tick.price,
    change: tick.change,
    changePct: tick.changePct,
    high: tick.high,
    low: tick.low,
    volume: tick.volume,
    turnover: tick.turnover,
    time: tick.time,
  };
}

/**
 * Writes the stream's ticks of `code` into the cached quote under `queryKey`; null code: nothing to
 * stream. Returns true while the stream is live (the caller's poll can rest).
 */
export function useQuoteTicksInCache(code: string | null, queryKey: QueryKey): boolean {
  const [live, setLive] = useState(false);
  const keyHash = JSON.stringify(queryKey);
  useEffect(() => {
    setLive(false);
    if (!code) return;
    const key = JSON.parse(keyHash) as QueryKey;
    return subscribeQuotes(code, {
      quote: ({ quote }) =>
        queryClient.setQueryData<Quote>(key, (cached) => (cached ? moved(cached, quote) : cached)),
      status: (status) => setLive(status === 'live'),
      // Ticks were lost: the answer on screen may be behind, ask the station once.
      gap: () => void queryClient.invalidateQueries({ queryKey: key, exact: true }),
    });
  }, [code, keyHash]);
  return live;
}

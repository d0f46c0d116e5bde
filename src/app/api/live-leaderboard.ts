/**
 * A competition's ranking, live, from the station's server-sent events (`GET /api/stream/competition?id=`,
 * server/competitions/routes/competition-stream.ts). Each `ranking` event says a new snapshot was stored;
 * the cached leaderboard pages of that competition and mine.do (the user's rank) are then stale and the
 * screens on show read them again: the station serves both from the snapshot, so that read is cheap and
 * nothing is polled while the stream is live. The frozen event also makes the competition's detail stale
 * (its `frozen`), and ends the stream for good.
 *
 * Reconnecting as the quote stream does (live-quotes.ts): the browser's own retries resume by
 * Last-Event-ID; when it gives up, a new connection after a backoff (1 s, 2 s … 30 s), which starts with the
 * latest snapshot's event, so nothing missed stays unread. Closed while the page is hidden, reopened when it
 * shows again.
 */
import { useEffect, useState } from 'react';
import type { QueryKey } from '@tanstack/react-query';
import { browserStreamDeps, SOURCE_CLOSED, type StreamDeps, type StreamSource } from './stream-deps';
import { RECONNECT_BASE_MS, RECONNECT_MAX_MS, type LiveStatus } from './live-quotes';
import { queryClient } from './query-client';
import type { QueryCallKey } from './query-keys';

export const COMPETITION_STREAM_PATH = '/api/stream/competition';
const CLOSED = SOURCE_CLOSED;

/** The data of a `ranking` event. */
export interface RankingNews {
  competitionId: number;
  takenAt: number;
  frozen: boolean;
}

/** The part of the browser's EventSource used here (so tests can hand in a double). */
export type RankingSource = StreamSource<'ranking', { data: string }>;

export type LiveLeaderboardDeps = StreamDeps<RankingSource>;

export interface RankingListener {
  ranking(news: RankingNews): void;
  status(status: LiveStatus): void;
}

/** Watches one competition's stream until `stop()` (or its frozen event); returns `stop`. */
export function watchRanking(id: number, deps: LiveLeaderboardDeps, listener: RankingListener): () => void {
  let source: RankingSource | null = null;
  let timer: unknown = null;
  let failures = 0;
  let done = false;

  const close = () => {
    if (timer !== null) deps.clearTimer(timer);
    timer = null;
    if (!source) return;
    source.onopen = null;
    source.onerror = null;
    source.close();
    source = null;
  };
  const open = () => {
    timer = null;
    if (done || deps.isHidden()) return;
    const s = deps.createEventSource(`${COMPETITION_STREAM_PATH}?id=${id}`);
    source = s;
    listener.status('connecting');
    s.onopen = () => {
      failures = 0;
      listener.status('live');
    };
    s.onerror = () => {
      // CONNECTING: the browser retries by itself (resuming); CLOSED: it gave up, back off and reopen.
      if (s.readyState !== CLOSED) return listener.status('connecting');
      close();
      listener.status('down');
      timer = deps.setTimer(open, Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** failures++));
    };
    s.addEventListener('ranking', (event) => {
      let news: RankingNews;
      try {
        news = JSON.parse(event.data) as RankingNews;
      } catch {
        return;
      }
      listener.ranking(news);
      if (news.frozen) {
        // Final: the station ends the stream, and the browser must not reopen it.
        done = true;
        close();
        stopWatching();
        listener.status('idle');
      }
    });
  };
  const stopWatching = deps.onVisibilityChange(() => {
    if (done) return;
    if (deps.isHidden()) {
      close();
      listener.status('paused');
    } else if (!source) {
      failures = 0;
      open();
    }
  });
  if (deps.isHidden()) listener.status('paused');
  else open();
  return () => {
    done = true;
    close();
    stopWatching();
  };
}

const LEADERBOARD: QueryCallKey = 'GET /api/competition/leaderboard.do';
const MINE: QueryCallKey = 'GET /user/competition/mine.do';
const DETAIL: QueryCallKey = 'GET /api/competition/detail.do';

/** Whether a cached query is `call` of competition `id` (keys are `[call, input, locale]`, query-keys.ts). */
function isOf(call: QueryCallKey, id: number) {
  return (key: QueryKey) => key[0] === call && (key[1] as { id?: number } | undefined)?.id === id;
}

/** The queries a new ranking of competition `id` makes stale. */
export function staleOnRanking(news: RankingNews): ((key: QueryKey) => boolean)[] {
  const stale = [isOf(LEADERBOARD, news.competitionId), (key: QueryKey) => key[0] === MINE];
  if (news.frozen) stale.push(isOf(DETAIL, news.competitionId));
  return stale;
}

/**
 * Keeps the cached leaderboard pages of competition `id` and mine.do fresh from the stream (null: none
 * watched). Returns true while the stream is live: the caller's polling can rest. After the frozen event it
 * is false again, and the leaderboard's own `frozen` says no read will change any more.
 */
export function useLiveLeaderboard(id: number | null): boolean {
  const [live, setLive] = useState(false);
  useEffect(() => {
    setLive(false);
    if (id === null) return;
    const deps = browserStreamDeps<RankingSource>();
    if (!deps) return;
    return watchRanking(id, deps, {
      ranking: (news) => {
        for (const stale of staleOnRanking(news)) {
          void queryClient.invalidateQueries({ predicate: (query) => stale(query.queryKey) });
        }
      },
      status: (status) => setLive(status === 'live'),
    });
  }, [id]);
  return live;
}

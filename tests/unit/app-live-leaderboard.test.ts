import { describe, expect, it } from 'vitest';
import type { QueryKey } from '@tanstack/react-query';
import {
  staleOnRanking,
  watchRanking,
  type LiveLeaderboardDeps,
  type RankingNews,
  type RankingSource,
} from '../../src/app/api/live-leaderboard';
import type { LiveStatus } from '../../src/app/api/live-quotes';

const CONNECTING = 0;
const OPEN = 1;
const CLOSED = 2;

/** A stand-in for the browser's EventSource that the test drives by hand. */
class FakeSource implements RankingSource {
  readyState = CONNECTING;
  onopen: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  closed = false;
  private readonly listeners: ((event: { data: string }) => void)[] = [];
  constructor(readonly url: string) {}
  addEventListener(_type: 'ranking', listener: (event: { data: string }) => void) {
    this.listeners.push(listener);
  }
  close() {
    this.closed = true;
    this.readyState = CLOSED;
  }
  open() {
    this.readyState = OPEN;
    this.onopen?.({});
  }
  send(news: RankingNews | string) {
    const data = typeof news === 'string' ? news : JSON.stringify(news);
    for (const l of this.listeners) l({ data });
  }
  fail(gaveUp: boolean) {
    this.readyState = gaveUp ? CLOSED : CONNECTING;
    this.onerror?.({});
  }
}

function harness() {
  const sources: FakeSource[] = [];
  const timers: { fn: () => void; ms: number; cleared: boolean }[] = [];
  let hidden = false;
  let visibility: (() => void) | null = null;
  const deps: LiveLeaderboardDeps = {
    createEventSource: (url) => {
      const s = new FakeSource(url);
      sources.push(s);
      return s;
    },
    setTimer: (fn, ms) => {
      const t = { fn, ms, cleared: false };
      timers.push(t);
      return t;
    },
    clearTimer: (t) => void ((t as { cleared: boolean }).cleared = true),
    isHidden: () => hidden,
    onVisibilityChange: (fn) => {
      visibility = fn;
      return () => (visibility = null);
    },
  };
  const news: RankingNews[] = [];
  const statuses: LiveStatus[] = [];
  const listener = { ranking: (n: RankingNews) => news.push(n), status: (s: LiveStatus) => statuses.push(s) };
  return {
    deps,
    sources,
    timers,
    news,
    statuses,
    listener,
    setHidden(value: boolean) {
      hidden = value;
      visibility?.();
    },
    watching: () => visibility !== null,
  };
}

describe('live leaderboard stream', () => {
  it('opens the competition stream, passes on each ranking, and stops for good at the frozen one', () => {
    const h = harness();
    watchRanking(7, h.deps, h.listener);
    expect(h.sources.map((s) => s.url)).toEqual(['/api/stream/competition?id=7']);
    const source = h.sources[0]!;
    source.open();
    expect(h.statuses).toEqual(['connecting', 'live']);
    source.send({ competitionId: 7, takenAt: 1000, frozen: false });
    source.send('not json');
    source.send({ competitionId: 7, takenAt: 2000, frozen: true });
    expect(h.news.map((n) => [n.takenAt, n.frozen])).toEqual([
      [1000, false],
      [2000, true],
    ]);
    expect(source.closed).toBe(true);
    expect(h.statuses.at(-1)).toBe('idle');
    expect(h.watching()).toBe(false);
    h.setHidden(false);
    expect(h.sources).toHaveLength(1);
  });

  it('lets the browser retry, backs off once it gives up, and rests while the page is hidden', () => {
    const h = harness();
    const stop = watchRanking(3, h.deps, h.listener);
    h.sources[0]!.open();
    h.sources[0]!.fail(false);
    expect(h.statuses.at(-1)).toBe('connecting');
    expect(h.timers).toHaveLength(0);
    h.sources[0]!.fail(true);
    expect(h.statuses.at(-1)).toBe('down');
    expect(h.timers.map((t) => t.ms)).toEqual([1000]);
    h.timers[0]!.fn();
    expect(h.sources).toHaveLength(2);
    h.sources[1]!.fail(true);
    expect(h.timers.map((t) => t.ms)).toEqual([1000, 2000]);
    h.timers[1]!.fn();
    h.sources[2]!.open();
    h.setHidden(true);
    expect(h.sources[2]!.closed).toBe(true);
    expect(h.statuses.at(-1)).toBe('paused');
    h.setHidden(false);
    expect(h.sources).toHaveLength(4);
    stop();
    expect(h.sources[3]!.closed).toBe(true);
    expect(h.watching()).toBe(false);
  });

  it("makes that competition's leaderboard pages and mine.do stale, and its detail when frozen", () => {
    const keys: QueryKey[] = [
      ['GET /api/competition/leaderboard.do', { id: 7, pageNum: 2 }, 'en'],
      ['GET /api/competition/leaderboard.do', { id: 8 }, 'en'],
      ['GET /user/competition/mine.do', {}, 'zh-CN'],
      ['GET /api/competition/detail.do', { id: 7 }, 'en'],
      ['GET /user/position/list.do', {}, 'en'],
    ];
    const staleOf = (frozen: boolean) => {
      const tests = staleOnRanking({ competitionId: 7, takenAt: 1, frozen });
      return keys.map((k) => tests.some((t) => t(k)));
    };
    expect(staleOf(false)).toEqual([true, false, true, false, false]);
    expect(staleOf(true)).toEqual([true, false, true, true, false]);
  });
});

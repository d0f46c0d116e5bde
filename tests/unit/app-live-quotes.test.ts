import { describe, expect, it } from 'vitest';
import {
  LiveQuoteHub,
  NATIVE_RETRIES,
  RECONNECT_BASE_MS,
  RECONNECT_MAX_MS,
  type EventSourceLike,
  type LiveQuoteDeps,
  type LiveStatus,
  type QuoteTick,
} from '../../src/app/api/live-quotes';
import type { Quote } from '../../src/shared/api/types';

const CONNECTING = 0;
const OPEN = 1;
const CLOSED = 2;

/** A stand-in for the browser's EventSource that the test drives by hand. */
class FakeEventSource implements EventSourceLike {
  readyState = CONNECTING;
  onopen: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  closed = false;
  private readonly quoteListeners: ((event: { data: string; lastEventId: string }) => void)[] = [];
  constructor(readonly url: string) {}
  addEventListener(_type: 'quote', listener: (event: { data: string; lastEventId: string }) => void) {
    this.quoteListeners.push(listener);
  }
  close() {
    this.closed = true;
    this.readyState = CLOSED;
  }
  open() {
    this.readyState = OPEN;
    this.onopen?.({});
  }
  /** The browser lost the connection: CONNECTING while it retries by itself, CLOSED when it gave up. */
  fail(gaveUp: boolean) {
    this.readyState = gaveUp ? CLOSED : CONNECTING;
    this.onerror?.({});
  }
  send(second: number, code: string, price: number) {
    const quote = { code, price, time: second * 1000 } as Quote;
    for (const l of this.quoteListeners) l({ data: JSON.stringify(quote), lastEventId: String(second) });
  }
  get codes(): string {
    return decodeURIComponent(new URL(this.url, 'http://x').searchParams.get('codes') ?? '');
  }
}

/** The hub with fake connections, a hand-run timer queue and a page visibility the test flips. */
function setup() {
  const sources: FakeEventSource[] = [];
  const timers = new Map<number, { fn: () => void; ms: number }>();
  let nextTimer = 1;
  let hidden = false;
  const visibilityListeners = new Set<() => void>();
  const deps: LiveQuoteDeps = {
    createEventSource(url) {
      const source = new FakeEventSource(url);
      sources.push(source);
      return source;
    },
    setTimer(fn, ms) {
      const id = nextTimer++;
      timers.set(id, { fn, ms });
      return id;
    },
    clearTimer(id) {
      timers.delete(id as number);
    },
    isHidden: () => hidden,
    onVisibilityChange(fn) {
      visibilityListeners.add(fn);
      return () => visibilityListeners.delete(fn);
    },
  };
  const hub = new LiveQuoteHub(deps);
  return {
    hub,
    sources,
    /** The delays of the timers waiting now. */
    pendingDelays: () => [...timers.values()].map((t) => t.ms),
    /** Runs every timer waiting now (as if their time came). */
    runTimers() {
      const due = [...timers.entries()];
      timers.clear();
      for (const [, t] of due) t.fn();
    },
    setHidden(value: boolean) {
      hidden = value;
      for (const fn of visibilityListeners) fn();
    },
    visibilityListenerCount: () => visibilityListeners.size,
    latest: () => sources[sources.length - 1]!,
  };
}

function recorder() {
  const ticks: QuoteTick[] = [];
  const statuses: LiveStatus[] = [];
  let gaps = 0;
  return {
    ticks,
    statuses,
    gaps: () => gaps,
    listener: {
      quote: (tick: QuoteTick) => ticks.push(tick),
      status: (status: LiveStatus) => statuses.push(status),
      gap: () => {
        gaps += 1;
      },
    },
  };
}

describe('live quote hub', () => {
  it('shares one connection among subscribers and multiplexes their codes', () => {
    const t = setup();
    const a = recorder();
    const b = recorder();
    const c = recorder();
    t.hub.subscribe('600519', a.listener);
    t.hub.subscribe('aapl', b.listener);
    t.hub.subscribe('600519', c.listener);
    expect(t.sources).toHaveLength(0); // opened once for the whole batch, on the next turn
    t.runTimers();
    expect(t.sources).toHaveLength(1);
    expect(t.latest().codes).toBe('600519,AAPL');
    t.latest().open();
    t.latest().send(100, '600519', 10.5);
    t.latest().send(100, 'AAPL', 180);
    expect(a.ticks.map((x) => [x.second, x.quote.code, x.quote.price])).toEqual([[100, '600519', 10.5]]);
    expect(c.ticks).toEqual(a.ticks);
    expect(b.ticks.map((x) => x.quote.code)).toEqual(['AAPL']);
    expect(a.statuses).toEqual(['idle', 'connecting', 'live']);
  });

  it('reopens with the new list when a code is added or dropped, and closes when nothing is left', () => {
    const t = setup();
    const a = recorder();
    const stopA = t.hub.subscribe('600519', a.listener);
    t.runTimers();
    t.latest().open();
    const stopB = t.hub.subscribe('00700', recorder().listener);
    t.runTimers();
    expect(t.sources).toHaveLength(2);
    expect(t.sources[0]!.closed).toBe(true);
    expect(t.latest().codes).toBe('00700,600519');
    t.latest().open();
    expect(a.gaps()).toBe(0); // a new list is not a lost connection
    stopB();
    t.runTimers();
    expect(t.latest().codes).toBe('600519');
    expect(t.sources[1]!.closed).toBe(true);
    stopA();
    expect(t.latest().closed).toBe(true);
    expect(t.hub.status).toBe('idle');
    expect(t.visibilityListenerCount()).toBe(0);
    t.runTimers();
    expect(t.sources).toHaveLength(3); // nothing reopened after the last unsubscribe
  });

  it('keeps the connection when a second subscriber joins a code already carried', () => {
    const t = setup();
    t.hub.subscribe('600519', recorder().listener);
    t.runTimers();
    t.latest().open();
    t.hub.subscribe('600519', recorder().listener);
    t.runTimers();
    expect(t.sources).toHaveLength(1);
    expect(t.latest().closed).toBe(false);
  });

  it('lets the browser resume a dropped connection, dropping ticks replayed twice', () => {
    const t = setup();
    const a = recorder();
    t.hub.subscribe('600519', a.listener);
    t.runTimers();
    const source = t.latest();
    source.open();
    source.send(100, '600519', 10);
    source.send(101, '600519', 10.1);
    source.fail(false);
    expect(t.hub.status).toBe('connecting');
    expect(t.sources).toHaveLength(1);
    // Reopened with Last-Event-ID: the station replays from there; the resumed stream is no gap.
    source.open();
    source.send(101, '600519', 10.1);
    source.send(102, '600519', 10.2);
    expect(a.ticks.map((x) => x.second)).toEqual([100, 101, 102]);
    expect(a.gaps()).toBe(0);
    expect(t.hub.status).toBe('live');
  });

  it('reconnects with growing backoff when the browser gives up, and reports the gap once live', () => {
    const t = setup();
    const a = recorder();
    t.hub.subscribe('600519', a.listener);
    t.runTimers();
    t.latest().open();
    const delays: number[] = [];
    for (let attempt = 0; attempt < 7; attempt++) {
      t.latest().fail(true);
      expect(t.hub.status).toBe('down');
      delays.push(...t.pendingDelays());
      t.runTimers();
    }
    expect(delays).toEqual(
      [1, 2, 4, 8, 16, 30, 30].map((s) => Math.min(s * RECONNECT_BASE_MS, RECONNECT_MAX_MS)),
    );
    expect(t.sources).toHaveLength(8);
    expect(t.sources.slice(0, 7).every((s) => s.closed)).toBe(true);
    expect(a.gaps()).toBe(0);
    t.latest().open();
    expect(a.gaps()).toBe(1);
    // Once live, the next failure starts from the shortest delay again.
    t.latest().fail(true);
    expect(t.pendingDelays()).toEqual([RECONNECT_BASE_MS]);
  });

  it('takes over from browser retries that keep failing', () => {
    const t = setup();
    t.hub.subscribe('600519', recorder().listener);
    t.runTimers();
    t.latest().open();
    for (let i = 0; i < NATIVE_RETRIES; i++) t.latest().fail(false);
    expect(t.sources).toHaveLength(1);
    expect(t.pendingDelays()).toEqual([]);
    t.latest().fail(false);
    expect(t.latest().closed).toBe(true);
    expect(t.pendingDelays()).toEqual([RECONNECT_BASE_MS]);
  });

  it('closes while the page is hidden and reopens, with a gap, when it shows again', () => {
    const t = setup();
    const a = recorder();
    t.hub.subscribe('600519', a.listener);
    t.runTimers();
    t.latest().open();
    t.setHidden(true);
    expect(t.latest().closed).toBe(true);
    expect(t.hub.status).toBe('paused');
    t.runTimers();
    expect(t.sources).toHaveLength(1);
    t.setHidden(false);
    t.runTimers();
    expect(t.sources).toHaveLength(2);
    t.latest().open();
    expect(a.gaps()).toBe(1);
    expect(a.statuses.slice(-3)).toEqual(['paused', 'connecting', 'live']);
  });

  it('does not open while the page is hidden', () => {
    const t = setup();
    t.setHidden(true);
    t.hub.subscribe('600519', recorder().listener);
    t.runTimers();
    expect(t.sources).toHaveLength(0);
    expect(t.hub.status).toBe('paused');
  });

  it('ignores events of a connection it has closed and ticks without an event id', () => {
    const t = setup();
    const a = recorder();
    t.hub.subscribe('600519', a.listener);
    t.runTimers();
    const first = t.latest();
    first.open();
    t.hub.subscribe('AAPL', recorder().listener);
    t.runTimers();
    first.send(200, '600519', 11);
    expect(a.ticks).toEqual([]);
    expect(() => t.latest().send(Number.NaN, '600519', 1)).not.toThrow();
    expect(a.ticks).toEqual([]);
  });
});

/**
 * Live quotes from the station's server-sent events (`GET /api/stream/quotes?codes=…`, server/market/routes/stream.ts).
 *
 * One EventSource serves every subscriber on screen: the codes of all subscribers are multiplexed on it
 * (a new or dropped code reopens it with the new list, once per batch of changes), it is closed when nothing is
 * subscribed and while the page is hidden, and reopened when the page shows again.
 *
 * Reconnecting: a dropped connection is first retried by the browser itself, which sends `Last-Event-ID` so
 * the station replays the ticks missed (up to 60 s back). When the browser gives up (the EventSource closes)
 * or its retries keep failing, this module opens a new connection with exponential backoff; a new
 * connection cannot resume (an EventSource cannot set that header), so its subscribers get `gap()` and read
 * the current state once. Subscribers see the connection's status: while it is not `live` they fall back
 * to polling.
 */
import { useEffect, useState } from 'react';
import type { Market, Quote } from '../../shared/api/types';
import { browserStreamDeps, SOURCE_CLOSED, type StreamDeps, type StreamSource } from './stream-deps';

export const STREAM_PATH = '/api/stream/quotes';
/** Backoff of a new connection after a failure: 1 s, 2 s, 4 s … at most 30 s. */
export const RECONNECT_BASE_MS = 1000;
export const RECONNECT_MAX_MS = 30_000;
/** Browser retries (with resume) that may fail in a row before this module takes over with backoff. */
export const NATIVE_RETRIES = 3;

/**
 * The markets the stream carries: stocks and indexes (server/market/routes/stream.ts answers 404 for any other code,
 * which would fail the whole shared connection), so futures stay on polling.
 */
export function streamCarries(market: Market): boolean {
  return market !== 'futures';
}

/** idle: nothing subscribed; paused: page hidden; down: waiting to reconnect. */
export type LiveStatus = 'idle' | 'connecting' | 'live' | 'down' | 'paused';

export interface QuoteTick {
  /** The event id: the station's epoch second of the quote. */
  second: number;
  quote: Quote;
}

export interface LiveQuoteListener {
  quote(tick: QuoteTick): void;
  status?(status: LiveStatus): void;
  /** Ticks may have been lost since this subscriber last heard (a connection that could not resume). */
  gap?(): void;
}

/** The part of the browser's EventSource this module uses (so tests can hand in a double). */
export type EventSourceLike = StreamSource<'quote', { data: string; lastEventId: string }>;

export type LiveQuoteDeps = StreamDeps<EventSourceLike>;

const CLOSED = SOURCE_CLOSED;

interface Entry {
  listener: LiveQuoteListener;
  /** Heard a live connection before: a later fresh connection means a gap for it. */
  heard: boolean;
}

export class LiveQuoteHub {
  private readonly subscribers = new Map<string, Set<Entry>>();
  private readonly lastSecond = new Map<string, number>();
  private source: EventSourceLike | null = null;
  private sourceCodes = '';
  private state: LiveStatus = 'idle';
  private pending: unknown = null;
  private failures = 0;
  private nativeErrors = 0;
  private stopWatching: (() => void) | null = null;

  constructor(private readonly deps: LiveQuoteDeps) {}

  get status(): LiveStatus {
    return this.state;
  }

  /** The codes the open connection carries, sorted ('' when none is open). */
  get connectedCodes(): string {
    return this.source ? this.sourceCodes : '';
  }

  subscribe(code: string, listener: LiveQuoteListener): () => void {
    const key = code.toUpperCase();
    const entry: Entry = { listener, heard: false };
    let set = this.subscribers.get(key);
    if (!set) {
      set = new Set();
      this.subscribers.set(key, set);
    }
    set.add(entry);
    this.stopWatching ??= this.deps.onVisibilityChange(() => this.onVisibility());
    listener.status?.(this.state);
    this.schedule(0);
    let active = true;
    return () => {
      if (!active) return;
      active = false;
      const codeSet = this.subscribers.get(key);
      codeSet?.delete(entry);
      if (codeSet && codeSet.size === 0) {
        this.subscribers.delete(key);
        this.lastSecond.delete(key);
      }
      if (this.subscribers.size === 0) this.shutDown();
      else this.schedule(0);
    };
  }

  private codes(): string {
    return [...this.subscribers.keys()].sort().join(',');
  }

  private setStatus(status: LiveStatus): void {
    if (status === this.state) return;
    this.state = status;
    for (const set of this.subscribers.values()) for (const e of set) e.listener.status?.(status);
  }

  private schedule(ms: number): void {
    if (this.pending !== null) {
      if (ms > 0) return; // a reconnect is already waiting
      this.deps.clearTimer(this.pending);
    }
    this.pending = this.deps.setTimer(() => {
      this.pending = null;
      this.sync();
    }, ms);
  }

  /** Opens, reopens or closes the connection so it carries exactly the subscribed codes. */
  private sync(): void {
    if (this.subscribers.size === 0) return this.shutDown();
    if (this.deps.isHidden()) {
      this.closeSource();
      this.setStatus('paused');
      return;
    }
    const codes = this.codes();
    if (this.source && codes === this.sourceCodes && this.source.readyState !== CLOSED) return;
    this.closeSource();
    this.open(codes);
  }

  private open(codes: string): void {
    const source = this.deps.createEventSource(`${STREAM_PATH}?codes=${encodeURIComponent(codes)}`);
    this.source = source;
    this.sourceCodes = codes;
    this.nativeErrors = 0;
    this.setStatus('connecting');
    source.onopen = () => {
      if (this.source !== source) return;
      this.failures = 0;
      this.nativeErrors = 0;
      this.setStatus('live');
      for (const set of this.subscribers.values()) {
        for (const e of set) {
          // A resumed connection replays what was missed; a new one after a loss reaches back only to now.
          if (e.heard && this.lost) e.listener.gap?.();
          e.heard = true;
        }
      }
      this.lost = false;
    };
    source.onerror = () => {
      if (this.source !== source) return;
      this.nativeErrors += 1;
      if (source.readyState !== CLOSED && this.nativeErrors <= NATIVE_RETRIES) {
        // The browser retries by itself and resumes from the last event id.
        this.setStatus('connecting');
        return;
      }
      this.closeSource();
      this.lost = true;
      this.setStatus('down');
      const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** this.failures);
      this.failures += 1;
      this.schedule(delay);
    };
    source.addEventListener('quote', (event) => {
      if (this.source !== source) return;
      let quote: Quote;
      try {
        quote = JSON.parse(event.data) as Quote;
      } catch {
        return;
      }
      const second = Number(event.lastEventId);
      const key = quote.code.toUpperCase();
      // A replay after a resume can repeat a second already delivered.
      if (!(second > (this.lastSecond.get(key) ?? Number.NEGATIVE_INFINITY))) return;
      this.lastSecond.set(key, second);
      const set = this.subscribers.get(key);
      if (!set) return;
      for (const e of [...set]) e.listener.quote({ second, quote });
    });
  }

  /** Set when a connection was lost without resume (given up, or closed while hidden): a gap on reopen. */
  private lost = false;

  private closeSource(): void {
    if (!this.source) return;
    this.source.onopen = null;
    this.source.onerror = null;
    this.source.close();
    this.source = null;
  }

  private shutDown(): void {
    if (this.pending !== null) this.deps.clearTimer(this.pending);
    this.pending = null;
    this.closeSource();
    this.stopWatching?.();
    this.stopWatching = null;
    this.failures = 0;
    this.lost = false;
    this.setStatus('idle');
  }

  private onVisibility(): void {
    if (this.subscribers.size === 0) return;
    if (this.deps.isHidden()) {
      if (this.source) this.lost = true;
      this.closeSource();
      if (this.pending !== null) this.deps.clearTimer(this.pending);
      this.pending = null;
      this.setStatus('paused');
    } else {
      this.failures = 0;
      this.schedule(0);
    }
  }
}

let shared: LiveQuoteHub | null | undefined;

/**
 * Subscribes to one code's live quotes on the page's shared connection; returns the unsubscribe. Where the
 * browser has no EventSource the listener only hears `down`, and its polling fallback stays on.
 */
export function subscribeQuotes(code: string, listener: LiveQuoteListener): () => void {
  if (shared === undefined) {
    const deps = browserStreamDeps<EventSourceLike>();
    shared = deps ? new LiveQuoteHub(deps) : null;
  }
  if (!shared) {
    listener.status?.('down');
    return () => undefined;
  }
  return shared.subscribe(code, listener);
}

/** The latest streamed quote of `code` (null until the first tick, and again when the code changes). */
export function useLiveQuote(code: string | undefined): Quote | null {
  const [latest, setLatest] = useState<Quote | null>(null);
  useEffect(() => {
    setLatest(null);
    if (!code) return;
    // A tick that moves nothing shown keeps the same object, so the screen does not re-render each second.
    return subscribeQuotes(code, {
      quote: ({ quote }) =>
        setLatest((prev) =>
          prev &&
          prev.price === quote.price &&
          prev.change === quote.change &&
          prev.changePct === quote.changePct
            ? prev
            : quote,
        ),
    });
  }, [code]);
  return latest;
}

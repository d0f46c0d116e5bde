/**
 * What the live streams (live-quotes.ts, live-leaderboard.ts) take from the browser: an EventSource to the
 * discovered station, timers for the reconnect backoff, and the page's visibility (a hidden page closes its
 * streams). Passed in, so their tests hand in doubles.
 */
import { onApiBase } from './base-url';

/** The part of the browser's EventSource a stream uses; `E` names the events it listens to. */
export interface StreamSource<E extends string, D> {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  addEventListener(type: E, listener: (event: D) => void): void;
  close(): void;
}

/** EventSource.readyState once the browser has given up reconnecting by itself. */
export const SOURCE_CLOSED = 2;

export interface StreamDeps<S> {
  createEventSource(url: string): S;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
  /** True while the page is hidden; `onVisibilityChange` calls back on every change. */
  isHidden(): boolean;
  onVisibilityChange(fn: () => void): () => void;
}

interface BrowserGlobals<S> {
  EventSource?: new (url: string) => S;
  document?: {
    visibilityState: string;
    addEventListener(type: 'visibilitychange', fn: () => void): void;
    removeEventListener(type: 'visibilitychange', fn: () => void): void;
  };
}

/** The browser's own, or null where it has no EventSource (the callers' polling then stays on). */
export function browserStreamDeps<S>(): StreamDeps<S> | null {
  const g = globalThis as unknown as BrowserGlobals<S>;
  const EventSourceClass = g.EventSource;
  const doc = g.document;
  if (!EventSourceClass || !doc) return null;
  return {
    // The stream bypasses the service worker: it goes to the discovered base URL directly.
    createEventSource: (url) => new EventSourceClass(onApiBase(url)),
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
    isHidden: () => doc.visibilityState === 'hidden',
    onVisibilityChange(fn) {
      doc.addEventListener('visibilitychange', fn);
      return () => doc.removeEventListener('visibilitychange', fn);
    },
  };
}

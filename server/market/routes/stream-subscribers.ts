/**
 * The live stream's subscribers in this process: the open connections, what each has been sent, the one
 * timer aligned to the second that ticks them (unless a tick bus does), and the heartbeat.
 */
import type { ServerResponse } from 'node:http';
import type { MarketService } from '../market-service';
import { eventOf, type StreamEntry } from './stream-quote-events';

const TICK_MS = 1000;
const HEARTBEAT_MS = 15_000;
const MAX_REPLAY_SECONDS = 60;

export interface Subscriber {
  entries: StreamEntry[];
  res: ServerResponse;
  lastSecond: number;
  /** The client's address (per-address cap). */
  address: string;
}

/** What a stream may cost the station (config.stream). */
export interface StreamLimits {
  maxBufferedBytes: number;
  maxReplayEvents: number;
}

export interface SubscriberRegistry {
  /**
   * Writes the seconds `from`..`to` to one subscriber: at most the last MAX_REPLAY_SECONDS of them, and at
   * most maxReplayEvents events (the latest seconds are kept).
   */
  send(sub: Subscriber, from: number, to: number, cache: Map<string, string>): void;
  /** Writes each subscriber the seconds it has not had, up to `second`. */
  sendUpTo(second: number, cache: Map<string, string>): void;
  /** Holds a connection open: heartbeats, and ticks from the own timer unless a tick bus brings them. */
  add(sub: Subscriber): void;
  remove(sub: Subscriber): void;
  /** Streams open from an address in this process. */
  openFrom(address: string): number;
  /** Codes the clients of this process watch (scale-out mode: told to the leader through the bus). */
  watchedCodes(): string[];
  /** Ends every connection (the station is closing). */
  endAll(): void;
}

/** `ownTimer`: whether this process ticks its subscribers itself (false when a tick bus brings each second). */
export function createSubscriberRegistry(
  market: MarketService,
  ownTimer: boolean,
  limits: StreamLimits,
): SubscriberRegistry {
  const subscribers = new Set<Subscriber>();
  const perAddress = new Map<string, number>();
  let ticker: NodeJS.Timeout | null = null;
  let heartbeat: NodeJS.Timeout | null = null;

  /**
   * Backpressure: a client that stopped reading lets what is written pile up in its response; once that
   * passes the bound it is dropped rather than held in memory (it resumes with Last-Event-ID).
   */
  const write = (sub: Subscriber, text: string) => {
    if (sub.res.writableLength > limits.maxBufferedBytes) {
      remove(sub);
      sub.res.destroy();
      return;
    }
    sub.res.write(text);
  };

  const send = (sub: Subscriber, from: number, to: number, cache: Map<string, string>) => {
    const seconds = Math.max(
      1,
      Math.min(MAX_REPLAY_SECONDS, Math.floor(limits.maxReplayEvents / sub.entries.length)),
    );
    let out = '';
    for (let s = Math.max(from, to - seconds + 1); s <= to; s++) {
      for (const entry of sub.entries) out += eventOf(market, entry, s, cache);
    }
    sub.lastSecond = Math.max(sub.lastSecond, to);
    if (out !== '') write(sub, out);
  };

  const sendUpTo = (second: number, cache: Map<string, string>) => {
    for (const sub of [...subscribers])
      if (second > sub.lastSecond) send(sub, sub.lastSecond + 1, second, cache);
  };

  const schedule = () => {
    if (!ownTimer || ticker || subscribers.size === 0) return;
    ticker = setTimeout(tick, TICK_MS - (Date.now() % TICK_MS) + 1);
  };
  function tick() {
    ticker = null;
    sendUpTo(Math.floor(market.now() / 1000), new Map<string, string>());
    schedule();
  }

  function remove(sub: Subscriber) {
    if (!subscribers.delete(sub)) return;
    const left = (perAddress.get(sub.address) ?? 1) - 1;
    if (left > 0) perAddress.set(sub.address, left);
    else perAddress.delete(sub.address);
    if (subscribers.size === 0) {
      if (ticker) clearTimeout(ticker);
      if (heartbeat) clearInterval(heartbeat);
      ticker = null;
      heartbeat = null;
    }
  }

  return {
    send,
    sendUpTo,
    add(sub) {
      subscribers.add(sub);
      perAddress.set(sub.address, (perAddress.get(sub.address) ?? 0) + 1);
      heartbeat ??= setInterval(() => {
        for (const s of [...subscribers]) write(s, ': heartbeat\n\n');
      }, HEARTBEAT_MS);
      schedule();
    },
    remove,
    openFrom: (address) => perAddress.get(address) ?? 0,
    watchedCodes: () => [
      ...new Set([...subscribers].flatMap((sub) => sub.entries.map((e) => e.instrument.code))),
    ],
    endAll() {
      for (const sub of [...subscribers]) {
        remove(sub);
        sub.res.end();
      }
    },
  };
}

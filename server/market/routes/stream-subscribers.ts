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
}

export interface SubscriberRegistry {
  /** Writes the seconds `from`..`to` (at most the last MAX_REPLAY_SECONDS of them) to one subscriber. */
  send(sub: Subscriber, from: number, to: number, cache: Map<string, string>): void;
  /** Writes each subscriber the seconds it has not had, up to `second`. */
  sendUpTo(second: number, cache: Map<string, string>): void;
  /** Holds a connection open: heartbeats, and ticks from the own timer unless a tick bus brings them. */
  add(sub: Subscriber): void;
  remove(sub: Subscriber): void;
  /** Codes the clients of this process watch (scale-out mode: told to the leader through the bus). */
  watchedCodes(): string[];
  /** Ends every connection (the station is closing). */
  endAll(): void;
}

/** `ownTimer`: whether this process ticks its subscribers itself (false when a tick bus brings each second). */
export function createSubscriberRegistry(market: MarketService, ownTimer: boolean): SubscriberRegistry {
  const subscribers = new Set<Subscriber>();
  let ticker: NodeJS.Timeout | null = null;
  let heartbeat: NodeJS.Timeout | null = null;

  const send = (sub: Subscriber, from: number, to: number, cache: Map<string, string>) => {
    let out = '';
    for (let s = Math.max(from, to - MAX_REPLAY_SECONDS + 1); s <= to; s++) {
      for (const entry of sub.entries) out += eventOf(market, entry, s, cache);
    }
    if (out !== '') sub.res.write(out);
    sub.lastSecond = Math.max(sub.lastSecond, to);
  };

  const sendUpTo = (second: number, cache: Map<string, string>) => {
    for (const sub of subscribers) if (second > sub.lastSecond) send(sub, sub.lastSecond + 1, second, cache);
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

  const remove = (sub: Subscriber) => {
    subscribers.delete(sub);
    if (subscribers.size === 0) {
      if (ticker) clearTimeout(ticker);
      if (heartbeat) clearInterval(heartbeat);
      ticker = null;
      heartbeat = null;
    }
  };

  return {
    send,
    sendUpTo,
    add(sub) {
      subscribers.add(sub);
      heartbeat ??= setInterval(() => {
        for (const s of subscribers) s.res.write(': heartbeat\n\n');
      }, HEARTBEAT_MS);
      schedule();
    },
    remove,
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

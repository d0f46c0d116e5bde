/**
 * Scale-out mode of the live stream (REDIS_URL): the elected leader quotes the codes some process's clients
 * watch, once a second, and publishes them on the tick bus; every process writes each published second to
 * its own clients (routes/stream-tick-fan-out.ts). The `tick-publish` job (server/jobs) runs this step on
 * the leader, aligned to the second.
 */
import type { TickBus } from '../platform';
import type { MarketService } from './market-service';
import { entryOf, quoteData, type StreamEntry } from './routes/stream-quote-events';

export interface TickPublisher {
  /** Publishes the market clock's second unless it was published already. */
  step(): Promise<void>;
  /** Forgets the last second published (a new leader starts from its own clock's second). */
  reset(): void;
}

export function createTickPublisher(market: MarketService, tickBus: TickBus): TickPublisher {
  let lastPublished: number | null = null;
  return {
    async step() {
      const second = Math.floor(market.now() / 1000);
      if (lastPublished !== null && second <= lastPublished) return;
      const quotes: Record<string, string> = {};
      for (const code of await tickBus.watched()) {
        let entry: StreamEntry;
        try {
          entry = entryOf(market, code);
        } catch {
          continue; // not listed (yet) here: nothing to quote
        }
        quotes[entry.instrument.code] = quoteData(market, entry, second);
      }
      if (Object.keys(quotes).length > 0) await tickBus.publish({ second, quotes });
      lastPublished = second;
    },
    reset() {
      lastPublished = null;
    },
  };
}

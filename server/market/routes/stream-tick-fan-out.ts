/**
 * Scale-out mode of the live stream (REDIS_URL, `app.tickBus`): only the elected leader (`app.leader`)
 * quotes the codes some process watches, once a second, and publishes them; every process (the leader too)
 * writes each published second to its own clients, with any seconds they missed first, recomputed locally.
 */
import type { FastifyInstance } from 'fastify';
import type { TickBus } from '../../platform';
import { blockOf, entryOf, quoteData, type StreamEntry } from './stream-quote-events';
import type { SubscriberRegistry } from './stream-subscribers';

const TICK_MS = 1000;
/** How often a process renews the codes its clients watch (well within INTEREST_TTL_MS). */
const INTEREST_RENEW_MS = 5000;

/** Starts the fan-out; the answer stops it (waiting for a publication under way). */
export function startTickFanOut(
  app: FastifyInstance,
  tickBus: TickBus,
  subscribers: SubscriberRegistry,
): () => Promise<void> {
  const { market, leader } = app;
  // Every process writes each published second to its clients, with any seconds they missed first.
  tickBus.onTick((message) => {
    const cache = new Map<string, string>();
    for (const [code, data] of Object.entries(message.quotes)) {
      cache.set(`${code}|${message.second}`, blockOf(message.second, data));
    }
    subscribers.sendUpTo(message.second, cache);
  });
  // The leader publishes each new second of its clock; a new leader starts from its clock's second.
  let lastPublished: number | null = null;
  leader.onChange(() => {
    lastPublished = null;
  });
  let publisher: NodeJS.Timeout | null = null;
  let publishing: Promise<void> | null = null;
  const publish = async (second: number) => {
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
  };
  const publishTick = () => {
    publisher = setTimeout(publishTick, TICK_MS - (Date.now() % TICK_MS) + 1);
    publisher.unref();
    if (publishing || !leader.isLeader()) return;
    const second = Math.floor(market.now() / 1000);
    if (lastPublished !== null && second <= lastPublished) return;
    publishing = publish(second)
      .catch((error: unknown) => app.log.error({ err: error }, 'tick publication failed'))
      .finally(() => {
        publishing = null;
      });
  };
  publishTick();
  const renewer = setInterval(() => {
    tickBus
      .watch(subscribers.watchedCodes())
      .catch((error: unknown) => app.log.warn({ err: error }, 'stream interest not renewed'));
  }, INTEREST_RENEW_MS);
  renewer.unref();

  return async () => {
    if (publisher) clearTimeout(publisher);
    clearInterval(renewer);
    await publishing;
  };
}

/**
 * Scale-out mode of the live stream (REDIS_URL, `app.tickBus`): every process (the leader too) writes each
 * second the leader publishes (tick-publisher.ts) to its own clients, with any seconds they missed first,
 * recomputed locally, and names the codes its clients watch for the `stream-interest` job to renew.
 */
import type { TickBus } from '../../platform';
import { blockOf } from './stream-quote-events';
import type { SubscriberRegistry } from './stream-subscribers';

export function joinTickFanOut(tickBus: TickBus, subscribers: SubscriberRegistry): void {
  tickBus.onTick((message) => {
    const cache = new Map<string, string>();
    for (const [code, data] of Object.entries(message.quotes)) {
      cache.set(`${code}|${message.second}`, blockOf(message.second, data));
    }
    subscribers.sendUpTo(message.second, cache);
  });
  tickBus.interestIn(() => subscribers.watchedCodes());
}

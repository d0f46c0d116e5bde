/**
 * Live quotes as server-sent events: `GET /api/stream/quotes?codes=600519,AAPL` (stocks, indexes and futures;
 * a futures night session ticks as part of the next trading day).
 * - Once a second, for each subscribed code whose market is in session, an event `quote` whose id is the
 *   epoch second and whose data is the quote at that second.
 * - A comment line (`: heartbeat`) every 15 seconds keeps proxies and the client's timeout at bay.
 * - Resume: a client that reconnects with `Last-Event-ID: <second>` first gets the ticks it missed (up to
 *   60 seconds back), recomputed exactly: prices are a pure function of time and the seed.
 * Ticks follow the station's clock (a test can pin and move it). One timer, aligned to the second, serves every
 * subscriber; each code's event of a second is computed and serialised once however many clients watch it.
 * Scale-out mode (REDIS_URL, `app.tickBus`): the processes say which codes their clients watch, and only the
 * elected leader (`app.leader`) runs the timer: each second it quotes the watched codes and publishes them;
 * every process (the leader too) writes the published second to its own clients. A client that missed
 * seconds (a leader change, a slow start) gets them first, recomputed locally as for a resume, so a stream
 * neither skips nor repeats a second whichever process it is on.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyPluginAsync } from 'fastify';
import type { Quote } from '../../../src/shared/api/types';
import type { Instrument } from '../catalogue';
import { fields } from '../../platform/http/schemas';

const TICK_MS = 1000;
const HEARTBEAT_MS = 15_000;
const MAX_REPLAY_SECONDS = 60;
const MAX_CODES = 50;
/** How often a process renews the codes its clients watch (well within INTEREST_TTL_MS). */
const INTEREST_RENEW_MS = 5000;

/** What a subscribed code is: a stock, an index or a futures product (each quoted its own way). */
type Kind = 'stock' | 'index' | 'futures';

interface Subscriber {
  entries: { instrument: Instrument; kind: Kind }[];
  res: ServerResponse;
  lastSecond: number;
}

export const streamPlugin: FastifyPluginAsync = async (app) => {
  const { market } = app;
  const { tickBus, leader } = app;
  const subscribers = new Set<Subscriber>();
  let ticker: NodeJS.Timeout | null = null;
  let heartbeat: NodeJS.Timeout | null = null;

  /** A code's instrument and kind, or NOT_FOUND. */
  const entryOf = (code: string): Subscriber['entries'][number] => {
    const stock = market.find(code);
    if (stock) return { instrument: stock, kind: 'stock' };
    if (market.futures().some((def) => def.code === code)) {
      return { instrument: market.getFutures(code), kind: 'futures' };
    }
    return { instrument: market.getIndex(code), kind: 'index' }; // NOT_FOUND when none
  };

  /** The quote of one code at one second as JSON, or '' when its market is not in session. */
  const quoteData = (entry: Subscriber['entries'][number], second: number): string => {
    const t = second * 1000;
    if (!market.isOpen(entry.instrument, t)) return '';
    const quote: Quote =
      entry.kind === 'index'
        ? market.indexQuote(entry.instrument, t)
        : entry.kind === 'futures'
          ? { ...market.quote(entry.instrument, t), market: 'futures' }
          : market.quote(entry.instrument, t);
    return JSON.stringify(quote);
  };

  const blockOf = (second: number, data: string) =>
    data === '' ? '' : `id: ${second}\nevent: quote\ndata: ${data}\n\n`;

  /** The SSE block of one code at one second ('' when its market is not in session), memoised per tick. */
  const eventOf = (
    entry: Subscriber['entries'][number],
    second: number,
    cache: Map<string, string>,
  ): string => {
    const key = `${entry.instrument.code}|${second}`;
    let block = cache.get(key);
    if (block === undefined) {
      block = blockOf(second, quoteData(entry, second));
      cache.set(key, block);
    }
    return block;
  };

  const send = (sub: Subscriber, from: number, to: number, cache: Map<string, string>) => {
    let out = '';
    for (let s = Math.max(from, to - MAX_REPLAY_SECONDS + 1); s <= to; s++) {
      for (const entry of sub.entries) out += eventOf(entry, s, cache);
    }
    if (out !== '') sub.res.write(out);
    sub.lastSecond = Math.max(sub.lastSecond, to);
  };

  const schedule = () => {
    if (tickBus || ticker || subscribers.size === 0) return;
    ticker = setTimeout(tick, TICK_MS - (Date.now() % TICK_MS) + 1);
  };
  function tick() {
    ticker = null;
    const now = Math.floor(market.now() / 1000);
    const cache = new Map<string, string>();
    for (const sub of subscribers) if (now > sub.lastSecond) send(sub, sub.lastSecond + 1, now, cache);
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

  /** Codes the clients of this process watch (scale-out mode: told to the leader through the bus). */
  const watchedHere = () => [
    ...new Set([...subscribers].flatMap((sub) => sub.entries.map((e) => e.instrument.code))),
  ];
  let publisher: NodeJS.Timeout | null = null;
  let renewer: NodeJS.Timeout | null = null;
  let publishing: Promise<void> | null = null;
  if (tickBus) {
    // Every process writes each published second to its clients, with any seconds they missed first.
    tickBus.onTick((message) => {
      const cache = new Map<string, string>();
      for (const [code, data] of Object.entries(message.quotes)) {
        cache.set(`${code}|${message.second}`, blockOf(message.second, data));
      }
      for (const sub of subscribers) {
        if (message.second > sub.lastSecond) send(sub, sub.lastSecond + 1, message.second, cache);
      }
    });
    // The leader publishes each new second of its clock; a new leader starts from its clock's second.
    let lastPublished: number | null = null;
    leader.onChange(() => {
      lastPublished = null;
    });
    const publish = async (second: number) => {
      const quotes: Record<string, string> = {};
      for (const code of await tickBus.watched()) {
        let entry: Subscriber['entries'][number];
        try {
          entry = entryOf(code);
        } catch {
          continue; // not listed (yet) here: nothing to quote
        }
        quotes[entry.instrument.code] = quoteData(entry, second);
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
    renewer = setInterval(() => {
      tickBus
        .watch(watchedHere())
        .catch((error: unknown) => app.log.warn({ err: error }, 'stream interest not renewed'));
    }, INTEREST_RENEW_MS);
    renewer.unref();
  }

  app.addHook('onClose', async () => {
    if (publisher) clearTimeout(publisher);
    if (renewer) clearInterval(renewer);
    await publishing;
    for (const sub of [...subscribers]) {
      remove(sub);
      sub.res.end();
    }
  });

  app.get<{ Querystring: { codes: string } }>(
    '/api/stream/quotes',
    {
      schema: {
        tags: ['market'],
        summary:
          'Server-sent events: a quote a second per subscribed code in session; heartbeat; Last-Event-ID resume',
        querystring: fields(
          {
            codes: {
              type: 'string',
              minLength: 1,
              maxLength: 600,
              pattern: `^[A-Za-z0-9]{1,10}(,[A-Za-z0-9]{1,10}){0,${MAX_CODES - 1}}$`,
              description: `up to ${MAX_CODES} comma-separated stock, index or futures codes`,
            },
          },
          ['codes'],
        ),
        headers: {
          type: 'object',
          properties: { 'last-event-id': { type: 'string', pattern: '^[0-9]{1,15}$' } },
        },
      },
    },
    async (request, reply) => {
      const codes = [...new Set(request.query.codes.split(',').map((c) => c.toUpperCase()))];
      const entries = codes.map(entryOf);
      // The leader quotes these from its next second on (scale-out mode).
      if (tickBus) await tickBus.watch(entries.map((e) => e.instrument.code));

      // Hijacked, the reply skips Fastify's sending, so the headers the hooks set on it (CORS, and helmet's
      // security headers, wherever they are kept) are copied into the raw head here.
      const inherited: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) inherited[name] = value;
      }
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        ...inherited,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.write('retry: 2000\n\n');
      const now = Math.floor(market.now() / 1000);
      const sub: Subscriber = { entries, res, lastSecond: now - 1 };
      const lastEventId = request.headers['last-event-id'];
      const from = typeof lastEventId === 'string' ? Number(lastEventId) + 1 : now;
      send(sub, from, now, new Map());
      if (!(request.raw.socket instanceof Socket)) {
        // An in-process request (app.inject) has no connection to hold open: it gets the current ticks only.
        res.end();
        return;
      }
      subscribers.add(sub);
      heartbeat ??= setInterval(() => {
        for (const s of subscribers) s.res.write(': heartbeat\n\n');
      }, HEARTBEAT_MS);
      schedule();
      res.on('close', () => remove(sub));
    },
  );
};

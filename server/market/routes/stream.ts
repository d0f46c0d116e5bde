/**
 * Live quotes as server-sent events: `GET /api/stream/quotes?codes=600519,AAPL` (stocks, indexes and futures;
 * a futures night session ticks as part of the next trading day).
 * - Once a second, for each subscribed code whose market is in session, an event `quote` whose id is the
 *   epoch second and whose data is the quote at that second.
 * - A comment line (`: heartbeat`) every 15 seconds keeps proxies and the client's timeout at bay.
 * - Resume: a client that reconnects with `Last-Event-ID: <second>` first gets the ticks it missed (up to
 *   60 seconds back and STREAM_REPLAY_EVENTS events, the latest kept), recomputed exactly: prices are a pure
 *   function of time and the seed.
 * - Limits (config.stream): STREAMS_PER_IP open streams per address and process (RATE_LIMITED beyond); a
 *   client whose unread bytes pass STREAM_BUFFER_KB is dropped (backpressure), never buffered without end.
 * Ticks follow the station's clock (a test can pin and move it). One timer, aligned to the second, serves every
 * subscriber; each code's event of a second is computed and serialised once however many clients watch it.
 * Scale-out mode (REDIS_URL, `app.tickBus`): the processes say which codes their clients watch, and only the
 * elected leader (`app.leader`) runs the timer: each second it quotes the watched codes and publishes them;
 * every process (the leader too) writes the published second to its own clients. A client that missed
 * seconds (a leader change, a slow start) gets them first, recomputed locally as for a resume, so a stream
 * neither skips nor repeats a second whichever process it is on.
 * The quote events, the subscriber registry and the scale-out fan-out live beside this plugin
 * (stream-quote-events, stream-subscribers, stream-tick-fan-out).
 */
import { Socket } from 'node:net';
import type { FastifyPluginAsync } from 'fastify';
import { AppError, fields, openEventStream } from '../../platform';
import { entryOf } from './stream-quote-events';
import { createSubscriberRegistry, type Subscriber } from './stream-subscribers';
import { joinTickFanOut } from './stream-tick-fan-out';

const MAX_CODES = 50;

export const streamPlugin: FastifyPluginAsync = async (app) => {
  const { market, tickBus } = app;
  const limits = app.config.stream;
  const subscribers = createSubscriberRegistry(market, !tickBus, limits);
  if (tickBus) joinTickFanOut(tickBus, subscribers);

  // preClose, not onClose: close() waits for open connections before onClose runs, and a stream stays
  // open until it is ended, so a station with a connected phone would not stop (until the client gave up).
  app.addHook('preClose', async () => {
    subscribers.endAll();
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
      // A phone holds one or two streams; more from one address is a client gone wrong, or an attack.
      if (subscribers.openFrom(request.ip) >= limits.perAddress) {
        throw new AppError('RATE_LIMITED', { msgKey: 'TOO_MANY_STREAMS' });
      }
      const codes = [...new Set(request.query.codes.split(',').map((c) => c.toUpperCase()))];
      const entries = codes.map((code) => entryOf(market, code));
      // The leader quotes these from its next second on (scale-out mode).
      if (tickBus) await tickBus.watch(entries.map((e) => e.instrument.code));

      const res = openEventStream(reply);
      const now = Math.floor(market.now() / 1000);
      const sub: Subscriber = { entries, res, lastSecond: now - 1, address: request.ip };
      const lastEventId = request.headers['last-event-id'];
      const from = typeof lastEventId === 'string' ? Number(lastEventId) + 1 : now;
      subscribers.send(sub, from, now, new Map());
      if (!(request.raw.socket instanceof Socket)) {
        // An in-process request (app.inject) has no connection to hold open: it gets the current ticks only.
        res.end();
        return;
      }
      subscribers.add(sub);
      res.on('close', () => subscribers.remove(sub));
    },
  );
};

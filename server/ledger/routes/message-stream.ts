/**
 * The user's messages as server-sent events: `GET /user/stream/messages` (a session needed). Each new message
 * of the station to the user (fills, stops, alerts, deposits, KYC…) arrives within about a second as an
 * event `message` whose id is the message's id and whose data is the message as getMessagelist.do gives it,
 * in the language of `lang` (else Accept-Language). A client that reconnects with `Last-Event-ID` first gets
 * the messages after that id. Heartbeat and per-address limits as on the quote stream.
 */
import { Socket } from 'node:net';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { AppError, fields, openEventStream, userSecurity } from '../../platform';
import { loadMessageTexts } from '../messages';
import { createMessageFeed } from '../message-feed';

/** The station's message feed (message-feed.ts) as `app.messageFeed`, ended when the station closes. */
export const messageFeedPlugin = fp(async (app: FastifyInstance) => {
  const texts = await loadMessageTexts(undefined, (code, name, locale) =>
    app.market.localName(code, name, locale),
  );
  const feed = createMessageFeed(app.station.db, texts, {
    maxBufferedBytes: app.config.stream.maxBufferedBytes,
    logError: (error) => app.log.error({ err: error }, 'message stream: poll failed'),
  });
  app.decorate('messageFeed', feed);
  // preClose, as on the quote stream: an open stream would otherwise hold the station's close.
  app.addHook('preClose', async () => {
    feed.endAll();
  });
});

export const messageStreamPlugin: FastifyPluginAsync = async (app) => {
  const limits = app.config.stream;
  const feed = app.messageFeed;
  app.addHook('onRequest', app.auth.requireUser);

  app.get<{ Querystring: { lang?: string } }>(
    '/user/stream/messages',
    {
      schema: {
        tags: ['user'],
        summary: "Server-sent events: each new message to the user (event 'message'); Last-Event-ID resume",
        security: userSecurity,
        querystring: fields({ lang: { type: 'string', maxLength: 16, pattern: '^[A-Za-z-]+$' } }, []),
        headers: {
          type: 'object',
          properties: { 'last-event-id': { type: 'string', pattern: '^[0-9]{1,15}$' } },
        },
      },
    },
    async (request, reply) => {
      if (feed.openFrom(request.ip) >= limits.perAddress) {
        throw new AppError('RATE_LIMITED', { msgKey: 'TOO_MANY_STREAMS' });
      }
      const userId = app.auth.session(request).userId;
      const locale = app.i18n.resolve(request.query.lang ?? request.headers['accept-language']);
      const lastEventId = request.headers['last-event-id'];
      const afterId = typeof lastEventId === 'string' ? Number(lastEventId) : null;
      const res = openEventStream(reply);
      const client = { userId, locale, res, address: request.ip };
      if (!(request.raw.socket instanceof Socket)) {
        // An in-process request (app.inject) has no connection to hold open.
        res.end();
        return;
      }
      let closed = false;
      res.on('close', () => {
        closed = true;
        feed.remove(client);
      });
      await feed.add(client, afterId);
      if (closed) feed.remove(client);
    },
  );
};

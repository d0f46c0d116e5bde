/**
 * The station's messages to the user, in the request's language (spec §7 "Cash": getMessagelist.do and
 * getUnreadCount.do; the spec names no call for read marking, so readMessage.do sits beside them).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import { listMessages, loadMessageTexts, markRead, unreadCount } from '../messages';
import {
  ok,
  fields,
  pageNumField,
  pageSizeField,
  postConsumes,
  responses,
  userSecurity,
} from '../../platform';

const messageSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    kind: {
      type: 'string',
      description:
        'order_filled, order_rejected, order_expired, stop_profit, stop_loss, risk_warning, liquidation, deposit, withdrawal, kyc',
    },
    title: { type: 'string' },
    content: { type: 'string' },
    refType: {
      type: ['string', 'null'],
      description: 'order, position, account, recharge, withdrawal or user',
    },
    refId: { type: ['integer', 'null'] },
    createdAt: { type: 'integer' },
    readAt: { type: ['integer', 'null'] },
  },
  required: ['id', 'kind', 'title', 'content', 'refType', 'refId', 'createdAt', 'readAt'],
  additionalProperties: false,
} as const;

const unreadSchema = {
  type: 'object',
  properties: { unread: { type: 'integer' } },
  required: ['unread'],
  additionalProperties: false,
} as const;

export const messagesPlugin: FastifyPluginAsync = async (app) => {
  const { station } = app;
  const texts = await loadMessageTexts(undefined, (code, name, locale) =>
    app.market.localName(code, name, locale),
  );
  app.addHook('onRequest', app.auth.requireUser);

  app.get<{ Querystring: { unreadOnly?: boolean; pageNum: number; pageSize: number } }>(
    '/user/cash/getMessagelist.do',
    {
      schema: {
        tags: ['user'],
        summary: "The station's messages to the user, newest first, with the unread count",
        security: userSecurity,
        querystring: fields(
          {
            unreadOnly: { type: 'boolean' },
            pageNum: pageNumField,
            pageSize: { ...pageSizeField, default: station.config.settings.pageSizeDefault },
          },
          [],
        ),
        response: responses({
          type: 'object',
          properties: {
            list: { type: 'array', items: messageSchema },
            total: { type: 'integer' },
            pageNum: { type: 'integer' },
            pageSize: { type: 'integer' },
            unread: { type: 'integer' },
          },
          required: ['list', 'total', 'pageNum', 'pageSize', 'unread'],
          additionalProperties: false,
        }),
      },
    },
    async (request) => {
      const locale = app.i18n.resolve(request.headers['accept-language']);
      const userId = app.auth.session(request).userId;
      return ok(await listMessages(station.db, texts, locale, userId, request.query));
    },
  );

  app.get(
    '/user/cash/getUnreadCount.do',
    {
      schema: {
        tags: ['user'],
        summary: "How many of the station's messages the user has not read",
        security: userSecurity,
        querystring: fields({}),
        response: responses(unreadSchema),
      },
    },
    async (request) => ok({ unread: await unreadCount(station.db, app.auth.session(request).userId) }),
  );

  app.post<{ Body: CallIn<'POST /user/cash/readMessage.do'> }>(
    '/user/cash/readMessage.do',
    {
      schema: {
        tags: ['user'],
        summary: 'Mark one message read, or all of them without an id; answers the unread count',
        security: userSecurity,
        consumes: postConsumes,
        body: fields({ id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } }, []),
        response: responses(unreadSchema),
      },
    },
    async (request) => {
      const userId = app.auth.session(request).userId;
      return ok(await markRead(station.db, userId, request.body.id, station.clock.now()));
    },
  );
};

/**
 * The user's thread with online customer service: reading it and writing to it.
 */
import type { FastifyInstance } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import { SERVICE_MESSAGE_MAX } from '../../../src/shared/content';
import { sendServiceMessage, serviceThread } from '../content';
import { ok, fields, postConsumes, responses, userSecurity } from '../../platform';
import { int, object, str } from './content-schemas';

/** The customer-service thread and sending to it. */
export function customerServiceRoutes(app: FastifyInstance): void {
  const station = app.station;
  const serviceMessage = object({
    id: int,
    sender: { type: 'string', enum: ['user', 'staff'] },
    content: str,
    createdAt: int,
    readAt: { type: ['integer', 'null'] },
  });

  app.get<{ Querystring: CallIn<'GET /user/service/messages.do'> }>(
    '/user/service/messages.do',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['content'],
        summary:
          "The user's thread with online customer service, oldest first (the newest 200, or those after afterId); answers become read",
        security: userSecurity,
        querystring: fields({ afterId: { type: 'integer', minimum: 0, maximum: 1_000_000_000_000 } }),
        response: responses({ type: 'array', items: serviceMessage }),
      },
    },
    async (request) =>
      ok(await serviceThread(station, app.auth.session(request).userId, request.query.afterId ?? 0)),
  );

  app.post<{ Body: CallIn<'POST /user/service/send.do'> }>(
    '/user/service/send.do',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['content'],
        summary: 'Write to online customer service (the back office answers from the operator command line)',
        security: userSecurity,
        consumes: postConsumes,
        body: fields({ content: { type: 'string', maxLength: SERVICE_MESSAGE_MAX } }, ['content']),
        response: responses(serviceMessage),
      },
    },
    async (request) =>
      ok(await sendServiceMessage(station, app.auth.session(request).userId, request.body.content)),
  );
}

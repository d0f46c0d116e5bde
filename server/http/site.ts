/** Site calls: the health ping the app's base-URL discovery uses. */
import type { FastifyPluginAsync } from 'fastify';
import { ok } from './envelope';
import { fields, responses } from './schemas';

export const sitePlugin: FastifyPluginAsync<{ version: string }> = async (app, opts) => {
  app.get(
    '/api/index/ping.do',
    {
      schema: {
        tags: ['site'],
        summary: 'Is the station there? (status 0 accepted)',
        querystring: fields({}),
        response: responses({
          type: 'object',
          properties: { serverTime: { type: 'integer' }, version: { type: 'string' } },
          required: ['serverTime', 'version'],
          additionalProperties: false,
        }),
      },
    },
    async () => ok({ serverTime: app.clock.now(), version: opts.version }),
  );
};

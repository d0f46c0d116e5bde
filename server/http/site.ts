/** Site calls: the health ping the app's base-URL discovery uses, and the display settings. */
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

  app.get(
    '/api/admin/getProductSetting.do',
    {
      schema: {
        tags: ['site'],
        summary: 'Which product areas the app shows (spec §3 display settings); no session needed',
        querystring: fields({}),
        response: responses({
          type: 'object',
          properties: {
            futuresDisplay: { type: 'boolean' },
            indexDisplay: { type: 'boolean' },
            kcStockDisplay: { type: 'boolean' },
            stockDisplay: { type: 'boolean' },
          },
          required: ['futuresDisplay', 'indexDisplay', 'kcStockDisplay', 'stockDisplay'],
          additionalProperties: false,
        }),
      },
    },
    async () => {
      const { futuresDisplay, indexDisplay, kcStockDisplay, stockDisplay } =
        app.config.settings.productDisplay;
      return ok({ futuresDisplay, indexDisplay, kcStockDisplay, stockDisplay });
    },
  );
};

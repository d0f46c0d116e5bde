/**
 * The watchlist calls (API.md): add, remove, is it watched, the list as quotes; and the station's own
 * reorder call. All need a session.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import {
  addToWatchlist,
  isWatched,
  removeFromWatchlist,
  reorderWatchlist,
  watchlistQuotes,
} from '../watchlist';
import { ok, fields, postConsumes, ref, responses, stockCodeField, userSecurity } from '../../platform';

const codeBody = fields({ code: stockCodeField }, ['code']);
/** The new order, top first, as comma-separated codes (a form field or JSON string alike). */
const sortBody = fields(
  {
    codes: {
      type: 'string',
      minLength: 1,
      maxLength: 2600,
      pattern: '^[A-Za-z0-9]{1,12}(,[A-Za-z0-9]{1,12})*$',
      description: 'e.g. 600519,AAPL,00700',
    },
  },
  ['codes'],
);

export const watchlistPlugin: FastifyPluginAsync = async (app) => {
  const { station } = app;
  app.addHook('onRequest', app.auth.requireUser);

  app.post<{ Body: CallIn<'POST /user/addOption.do'> }>(
    '/user/addOption.do',
    {
      schema: {
        tags: ['watchlist'],
        summary:
          'Add a stock or futures code to the watchlist (newest first; twice is harmless); ' +
          'an index answers INDEX_NOT_WATCHABLE, a full list ABOVE_MAXIMUM',
        security: userSecurity,
        consumes: postConsumes,
        body: codeBody,
        response: responses({ type: 'null' }),
      },
    },
    async (request) => ok(await addToWatchlist(station, app.auth.session(request).userId, request.body.code)),
  );

  app.post<{ Body: CallIn<'POST /user/delOption.do'> }>(
    '/user/delOption.do',
    {
      schema: {
        tags: ['watchlist'],
        summary: 'Remove a code from the watchlist (harmless when it is not there)',
        security: userSecurity,
        consumes: postConsumes,
        body: codeBody,
        response: responses({ type: 'null' }),
      },
    },
    async (request) =>
      ok(await removeFromWatchlist(station, app.auth.session(request).userId, request.body.code)),
  );

  app.post<{ Body: CallIn<'POST /user/option/sort.do'> }>(
    '/user/option/sort.do',
    {
      schema: {
        tags: ['watchlist'],
        summary:
          'Reorder the watchlist, top first; codes added meanwhile stay on top, codes not watched are ' +
          'skipped, a code twice is VALIDATION',
        security: userSecurity,
        consumes: postConsumes,
        body: sortBody,
        response: responses({ type: 'null' }),
      },
    },
    async (request) =>
      ok(await reorderWatchlist(station, app.auth.session(request).userId, request.body.codes.split(','))),
  );

  app.get<{ Querystring: CallIn<'GET /user/isOption.do'> }>(
    '/user/isOption.do',
    {
      schema: {
        tags: ['watchlist'],
        summary: 'Whether a code is on the watchlist (an index never is)',
        security: userSecurity,
        querystring: codeBody,
        response: responses({
          type: 'object',
          properties: { watched: { type: 'boolean' } },
          required: ['watched'],
          additionalProperties: false,
        }),
      },
    },
    async (request) => ok(await isWatched(station, app.auth.session(request).userId, request.query.code)),
  );

  app.get(
    '/user/option/list.do',
    {
      schema: {
        tags: ['watchlist'],
        summary: "The watchlist as live quotes, in the user's order (newest first unless reordered)",
        security: userSecurity,
        response: responses({ type: 'array', items: ref('Quote') }),
      },
    },
    async (request) => ok(await watchlistQuotes(station, app.auth.session(request).userId)),
  );
};

/** Market route: whether a code's market trades now, and if not why (break, close, holiday) and when it opens. */
import type { FastifyInstance } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import { AppError, ok, fields, responses, stockCodeField } from '../../platform';
import { marketStateAt } from '../market-state';
import { holidayName } from '../trading-calendar';

export function marketStateRoute(app: FastifyInstance): void {
  const { market } = app;
  app.get<{ Querystring: CallIn<'GET /api/stock/getMarketState.do'> }>(
    '/api/stock/getMarketState.do',
    {
      schema: {
        tags: ['market'],
        summary:
          'Whether the market of a stock, index or future trades now: open, lunch break, closed or a holiday (with its name), and the next open',
        querystring: fields({ code: stockCodeField }, ['code']),
        response: responses({
          type: 'object',
          properties: {
            state: { type: 'string', enum: ['open', 'lunch', 'closed', 'holiday'] },
            holiday: {
              type: ['string', 'null'],
              description: "the exchange calendar's name of the holiday, in the request's language",
            },
            nextOpen: {
              type: ['integer', 'null'],
              description: 'epoch ms of the next open; null while open',
            },
            timeZone: { type: 'string', description: "the exchange's IANA time zone" },
          },
          required: ['state', 'holiday', 'nextOpen', 'timeZone'],
          additionalProperties: false,
        }),
      },
    },
    async (request) => {
      const tradable = market.findTradable(request.query.code);
      if (!tradable) throw new AppError('NOT_FOUND');
      const hours = market.hours(tradable.instrument);
      const state = marketStateAt(market.now(), hours);
      const messages = app.i18n.messages(request.headers['accept-language']);
      return ok({
        ...state,
        holiday: state.holiday === null ? null : holidayName(messages, state.holiday),
        timeZone: hours.timeZone,
      });
    },
  );
}

/** Market routes for a stock's bars: day, week and month (as traded or adjusted), and minute bars. */
import type { FastifyInstance } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import {
  ok,
  barsResponse,
  beforeField,
  dayBarsLimitField,
  dayPeriodField,
  fields,
  MINUTE_BARS_DESCRIPTION,
  stockCodeField,
  type BodyCache,
} from '../../platform';

/** Day, week or month bars; cached in `bars` until the instrument's minute moves. */
export function dayBarsRoute(app: FastifyInstance, bars: BodyCache): void {
  const { market, config } = app;
  app.get<{ Querystring: CallIn<'GET /api/stock/getDayK.do'> & { limit: number } }>(
    '/api/stock/getDayK.do',
    {
      schema: {
        tags: ['market'],
        summary: 'Day, week or month bars, oldest first (the last one is today so far)',
        querystring: fields(
          {
            code: stockCodeField,
            period: dayPeriodField,
            adjust: {
              type: 'string',
              enum: ['none', 'forward', 'backward'],
              default: 'none',
              description:
                'none: as traded; forward: earlier prices scaled to today (前复权); backward: later prices scaled from the first day (后复权)',
            },
            before: beforeField,
            limit: dayBarsLimitField(config.settings),
          },
          ['code'],
        ),
        response: barsResponse({ adjust: { type: 'string' } }),
      },
    },
    async (request, reply) => {
      const q = request.query;
      const instrument = market.get(q.code);
      const key = `${instrument.code}|${q.period}|${q.adjust}|${q.limit}|${q.before ?? ''}|${market.barClock(instrument)}`;
      return bars.send(request, reply, key, () =>
        ok({
          code: instrument.code,
          period: q.period,
          adjust: q.adjust,
          bars: market.dayBars(instrument, q.period, q.limit, q.before, q.adjust),
        }),
      );
    },
  );
}

/** Minute bars of today or the last five trading days; cached in `bars` like the day bars. */
export function minuteBarsRoute(app: FastifyInstance, bars: BodyCache): void {
  const { market } = app;
  app.get<{ Querystring: CallIn<'GET /api/stock/getMinK_Echarts.do'> }>(
    '/api/stock/getMinK_Echarts.do',
    {
      schema: {
        tags: ['market'],
        summary:
          "Minute bars, oldest first: intraday is today's session so far (rows add the running average price); 1, 5, 30 and 60 minutes cover the last five trading days up to now",
        querystring: fields(
          {
            code: stockCodeField,
            period: { type: 'string', enum: ['intraday', '1', '5', '30', '60'], default: 'intraday' },
          },
          ['code'],
        ),
        response: barsResponse({}, MINUTE_BARS_DESCRIPTION),
      },
    },
    async (request, reply) => {
      const instrument = market.get(request.query.code);
      const { period } = request.query;
      const key = `min|${instrument.code}|${period}|${market.barClock(instrument)}`;
      return bars.send(request, reply, key, () =>
        ok({ code: instrument.code, period, bars: market.minuteBars(instrument, period) }),
      );
    },
  );
}

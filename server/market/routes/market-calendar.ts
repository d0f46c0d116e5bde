/**
 * Market route: a market's trading calendar (DOMAIN.md "Markets, sessions, calendars"): its regular sessions
 * in exchange time with today's state, and its holidays and half days for the coming days, every name in
 * the request's language. Futures list one group per set of sessions their products share.
 */
import type { FastifyInstance } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import type { CalendarMarket, CalendarSessions, TradingCalendar } from '../../../src/shared/api/types';
import { ok, fields, responses } from '../../platform';
import { marketStateAt } from '../market-state';
import { hoursFor, holidayOn, localDay, type MarketHours } from '../sessions';
import { calendarListing, holidayName, MAX_CALENDAR_DAYS, sessionText } from '../trading-calendar';

/** The listing's length when the caller names none: about two months, what a trader plans around. */
const DEFAULT_DAYS = 60;

const STATE_NAMES = ['open', 'lunch', 'closed', 'holiday'];

const sessionsSchema = {
  type: 'object',
  properties: {
    codes: {
      type: 'array',
      items: { type: 'string' },
      description: 'the futures products sharing these sessions; empty for a whole market',
    },
    sessions: { type: 'array', items: { type: 'string' }, description: '"HH:MM-HH:MM" in exchange time' },
    state: { type: 'string', enum: STATE_NAMES },
    nextOpen: { type: ['integer', 'null'], description: 'epoch ms of the next open; null while open' },
  },
  required: ['codes', 'sessions', 'state', 'nextOpen'],
  additionalProperties: false,
} as const;

const daySchema = {
  type: 'object',
  properties: {
    kind: { type: 'string', enum: ['holiday', 'halfDay'] },
    from: { type: 'string', description: 'YYYY-MM-DD, exchange time' },
    to: { type: 'string', description: 'YYYY-MM-DD, exchange time' },
    name: { type: ['string', 'null'], description: "the holiday's name in the request's language" },
    sessions: { type: 'array', items: { type: 'string' }, description: "a half day's sessions" },
    opens: { type: 'integer', description: 'epoch ms of the first open after a holiday; a half day’s open' },
    provisional: { type: 'boolean', description: 'the year is projected, not yet published' },
  },
  required: ['kind', 'from', 'to', 'name', 'sessions', 'opens', 'provisional'],
  additionalProperties: false,
} as const;

export function marketCalendarRoute(app: FastifyInstance): void {
  const { market } = app;

  /** The session groups of a market: one for a stock market, one per distinct set for futures. */
  const groupsOf = (which: CalendarMarket): { codes: string[]; hours: MarketHours }[] => {
    if (which !== 'futures') return [{ codes: [], hours: hoursFor(which, market.clockMode) }];
    const groups = new Map<string, { codes: string[]; hours: MarketHours }>();
    for (const def of market.futures()) {
      const hours = market.hours(market.getFutures(def.code));
      const key = hours.sessions.map(sessionText).join(' ');
      const group = groups.get(key);
      if (group) group.codes.push(def.code);
      else groups.set(key, { codes: [def.code], hours });
    }
    return [...groups.values()];
  };

  app.get<{ Querystring: CallIn<'GET /api/stock/getCalendar.do'> }>(
    '/api/stock/getCalendar.do',
    {
      schema: {
        tags: ['market'],
        summary:
          "A market's trading calendar: its sessions in exchange time with today's state and next open, and its holidays (named in the request's language) and half days for the coming days",
        querystring: fields(
          {
            market: { type: 'string', enum: ['a', 'star', 'hk', 'us', 'futures'] },
            days: {
              type: 'integer',
              minimum: 1,
              maximum: MAX_CALENDAR_DAYS,
              default: DEFAULT_DAYS,
              description: 'how many days from today to list',
            },
          },
          ['market'],
        ),
        response: responses({
          type: 'object',
          properties: {
            market: { type: 'string', enum: ['a', 'star', 'hk', 'us', 'futures'] },
            timeZone: { type: 'string', description: "the exchange's IANA time zone" },
            today: { type: 'string', description: 'YYYY-MM-DD, exchange time' },
            through: { type: 'string', description: 'the last day listed, YYYY-MM-DD' },
            holiday: { type: ['string', 'null'], description: "today's holiday, if any" },
            sessions: { type: 'array', items: sessionsSchema },
            days: { type: 'array', items: daySchema },
          },
          required: ['market', 'timeZone', 'today', 'through', 'holiday', 'sessions', 'days'],
          additionalProperties: false,
        }),
      },
    },
    async (request) => {
      const which = request.query.market;
      const days = request.query.days ?? DEFAULT_DAYS;
      const messages = app.i18n.messages(request.headers['accept-language']);
      const now = market.now();
      const groups = groupsOf(which);
      // Every group of a market shares its days (futures trade on the Shanghai calendar).
      const hours = groups[0]!.hours;
      const listing = calendarListing(now, hours, days);
      const todays = holidayOn(localDay(now, hours.timeZone), hours);
      const sessions: CalendarSessions[] = groups.map((group) => {
        const state = marketStateAt(now, group.hours);
        return {
          codes: group.codes,
          sessions: group.hours.sessions.map(sessionText),
          state: state.state,
          nextOpen: state.nextOpen,
        };
      });
      const answer: TradingCalendar = {
        market: which,
        timeZone: hours.timeZone,
        today: listing.today,
        through: listing.through,
        holiday: todays === undefined ? null : holidayName(messages, todays),
        sessions,
        days: listing.entries.map((entry) => ({
          ...entry,
          name: entry.name === null ? null : holidayName(messages, entry.name),
        })),
      };
      return ok(answer);
    },
  );
}

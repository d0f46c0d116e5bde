/**
 * The trading calendar (DOMAIN.md "Markets, sessions, calendars"): for each market its sessions in the
 * exchange's time, whether it trades now (or which holiday closes it) and when it opens next, and its
 * holidays and half days of the coming two months, all as the station answers getCalendar.do, names in the
 * reader's language. `?market=` brings that market's section into view (the buy form's market line and
 * the market tab link here).
 */
import { useEffect, useRef } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { useI18nContext } from '../../../../locales/i18n-react';
import type { CalendarDay, CalendarMarket, CalendarSessions } from '../../../shared/api/types';
import { EXCHANGE_ZONES, formatDateTime, type ExchangeZone } from '../../../shared/format';
import { useStationQuery } from '../../api/station-query';
import { ErrorState, Loading } from '../../components/StatusViews';
import { useExchangeTime } from '../../i18n/exchange-time';
import './market.css';

const route = getRouteApi('/calendar');

/** The markets listed, in the market tab's order; STAR trades on the A-share calendar, so it shares a section. */
const MARKETS = ['a', 'hk', 'us', 'futures'] as const satisfies readonly CalendarMarket[];
type ListedMarket = (typeof MARKETS)[number];

/** How far ahead the holidays are listed: about two months, what a trader plans around. */
const DAYS_AHEAD = 60;

/** A session's state changes at most at a session's edge; a minute keeps the screen honest. */
const REFRESH_MS = 60_000;

/** The section a `?market=` asks for: STAR is on the A-share section. */
export function calendarSection(market: string | undefined): ListedMarket | undefined {
  if (market === 'star') return 'a';
  return (MARKETS as readonly string[]).includes(market ?? '') ? (market as ListedMarket) : undefined;
}

export function CalendarScreen() {
  const { market } = route.useSearch();
  const focus = calendarSection(market);
  return (
    <div className="screen calendar-screen" data-testid="calendar-screen">
      {MARKETS.map((m) => (
        <MarketCalendar key={m} market={m} focused={m === focus} />
      ))}
    </div>
  );
}

/** "1 Oct" (with the weekday) of a YYYY-MM-DD exchange date, in the reader's language. */
function dayText(date: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'short',
    weekday: 'short',
  }).format(new Date(`${date}T00:00:00Z`));
}

/** The exchange zone of a calendar's IANA zone; undefined for another (`always-open` days are UTC days). */
function zoneOf(timeZone: string): ExchangeZone | undefined {
  return (Object.keys(EXCHANGE_ZONES) as ExchangeZone[]).find((z) => EXCHANGE_ZONES[z] === timeZone);
}

/** The phone's own zone, when it is not the exchange's: then the next open is said in both. */
function phoneZoneDiffers(timeZone: string): boolean {
  return Intl.DateTimeFormat().resolvedOptions().timeZone !== timeZone;
}

function MarketCalendar({ market, focused }: { market: ListedMarket; focused: boolean }) {
  const { LL } = useI18nContext();
  const section = useRef<HTMLElement>(null);
  const calendar = useStationQuery(
    'GET /api/stock/getCalendar.do',
    { market, days: DAYS_AHEAD },
    { refetchInterval: REFRESH_MS },
  );
  const loaded = calendar.data !== undefined;
  useEffect(() => {
    if (focused && loaded) section.current?.scrollIntoView({ block: 'start' });
  }, [focused, loaded]);
  const data = calendar.data;
  const zone = data ? zoneOf(data.timeZone) : undefined;
  return (
    <section
      ref={section}
      className={focused ? 'calendar-market focused' : 'calendar-market'}
      data-testid={`calendar-${market}`}
      aria-labelledby={`calendar-title-${market}`}
    >
      <h2 className="section-title" id={`calendar-title-${market}`}>
        {LL.calendar.market[market]()}
      </h2>
      <p className="muted small calendar-note">{LL.calendar.marketNote[market]()}</p>
      {calendar.loading && <Loading />}
      {!data && calendar.error && <ErrorState error={calendar.error} onRetry={calendar.reload} />}
      {data && (
        <>
          <p className="small calendar-hours-title">
            {LL.calendar.sessions({ zone: zone ? LL.exchangeTime.zone[zone]() : data.timeZone })}
          </p>
          <ul className="calendar-sessions">
            {data.sessions.map((group) => (
              <SessionGroup
                key={group.codes.join(' ') || market}
                group={group}
                market={market}
                holiday={data.holiday}
                timeZone={data.timeZone}
              />
            ))}
          </ul>
          <p className="small calendar-hours-title">{LL.calendar.coming({ days: DAYS_AHEAD })}</p>
          {data.days.length === 0 ? (
            <p className="muted small" data-testid={`calendar-none-${market}`}>
              {LL.calendar.none({ days: DAYS_AHEAD })}
            </p>
          ) : (
            <ul className="calendar-days" data-testid={`calendar-days-${market}`}>
              {data.days.map((day) => (
                <HolidayRow key={`${day.kind}-${day.from}`} day={day} market={market} />
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

function SessionGroup({
  group,
  market,
  holiday,
  timeZone,
}: {
  group: CalendarSessions;
  market: ListedMarket;
  holiday: string | null;
  timeZone: string;
}) {
  const { LL } = useI18nContext();
  const exchangeTime = useExchangeTime();
  const state =
    group.state === 'holiday'
      ? holiday !== null
        ? LL.calendar.state.holiday({ name: holiday })
        : LL.calendar.state.closed()
      : LL.calendar.state[group.state]();
  return (
    <li
      className={`calendar-group market-${group.state}`}
      data-testid="calendar-sessions"
      data-state={group.state}
    >
      {group.codes.length > 0 && (
        <p className="muted small num">{LL.calendar.products({ codes: group.codes.join(' · ') })}</p>
      )}
      <p className="num calendar-session-times">{group.sessions.join(' · ')}</p>
      <p className="calendar-state">
        <span className="calendar-dot" aria-hidden="true" />
        <span data-testid="calendar-state">{state}</span>
      </p>
      {group.nextOpen !== null && (
        <p className="small" data-testid="calendar-next-open">
          {LL.calendar.nextOpen({ time: exchangeTime(group.nextOpen, market) })}
          {phoneZoneDiffers(timeZone) && (
            <span className="muted">
              {' · '}
              {LL.calendar.yourTime({ time: formatDateTime(group.nextOpen).slice(0, 16) })}
            </span>
          )}
        </p>
      )}
    </li>
  );
}

function HolidayRow({ day, market }: { day: CalendarDay; market: ListedMarket }) {
  const { LL, locale } = useI18nContext();
  const exchangeTime = useExchangeTime();
  const dates =
    day.from === day.to
      ? dayText(day.from, locale)
      : `${dayText(day.from, locale)} – ${dayText(day.to, locale)}`;
  const name = day.name ?? (day.kind === 'halfDay' ? LL.calendar.unnamedHalfDay() : '');
  return (
    <li className={`calendar-day ${day.kind}`} data-testid="calendar-day" data-kind={day.kind}>
      <span className="calendar-day-dates num">{dates}</span>
      <span className="calendar-day-main">
        <strong data-testid="calendar-day-name">{name}</strong>
        <span className="muted small">
          {day.kind === 'holiday'
            ? `${LL.calendar.closed()} · ${LL.calendar.reopens({ time: exchangeTime(day.opens, market) })}`
            : LL.calendar.halfDay({ sessions: day.sessions.join(' · ') })}
        </span>
        {day.provisional && <span className="muted small">{LL.calendar.provisional()}</span>}
      </span>
    </li>
  );
}

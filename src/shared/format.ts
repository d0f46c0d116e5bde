/** Number and time formatting of spec §9: thousands separators with 2 decimals; yyyy-MM-dd HH:mm:ss. */

const moneyFormatters = new Map<string, Intl.NumberFormat>();

/** 1234567.8 → "1,234,567.80" (separators follow the locale). */
export function formatMoney(value: number, locale = 'zh-CN', digits = 2): string {
  const key = `${locale}|${digits}`;
  let f = moneyFormatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      useGrouping: true,
    });
    moneyFormatters.set(key, f);
  }
  return f.format(value);
}

const compactFormatters = new Map<string, Intl.NumberFormat>();

/**
 * A big number the way the reader's market writes it, for market caps and share counts: 1.2万亿 / 3.56亿 in
 * Chinese (兆 / 億 in Taiwan), 1.2T / 356.03M in English, the locale's own units in Vietnamese; at most
 * `digits` decimals.
 */
export function formatBigNumber(value: number, locale = 'zh-CN', digits = 2): string {
  const key = `${locale}|${digits}`;
  let f = compactFormatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: digits });
    compactFormatters.set(key, f);
  }
  return f.format(value);
}

const pctFormatters = new Map<string, Intl.NumberFormat>();

function percent(locale: string, digits: number, signed: boolean): Intl.NumberFormat {
  const key = `${locale}|${digits}|${signed}`;
  let f = pctFormatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, {
      style: 'percent',
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      // A move that rounds to zero reads "0.00%", never "-0.00%".
      signDisplay: signed ? 'exceptZero' : 'auto',
    });
    pctFormatters.set(key, f);
  }
  return f;
}

/** A signed percentage from a fraction: 0.0123 → "+1.23%" ("+1,23%" in Vietnamese). */
export function formatPct(fraction: number, locale = 'zh-CN', digits = 2): string {
  return percent(locale, digits, true).format(fraction);
}

/** A rate as a plain percentage without a sign: 0.003 → "0.30%" (formatPct signs price moves). */
export function formatRate(fraction: number, locale = 'zh-CN', digits = 2): string {
  return percent(locale, digits, false).format(fraction);
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** Epoch ms → "yyyy-MM-dd HH:mm:ss" in the given IANA time zone (default: the viewer's). */
export function formatDateTime(ms: number, timeZone?: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return `${get('year')}-${pad(get('month'))}-${pad(get('day'))} ${pad(get('hour'))}:${pad(get('minute'))}:${pad(get('second'))}`;
}

/**
 * The exchanges' time zones (DOMAIN.md "Markets, sessions, calendars"): A-shares, Chinese indexes and
 * futures trade on Shanghai time (shown as Beijing time), Hong Kong on Hong Kong time, US on New York time.
 * Exchange times are shown in the exchange's zone and say so, whatever the phone's zone.
 */
export const EXCHANGE_ZONES = {
  beijing: 'Asia/Shanghai',
  hongKong: 'Asia/Hong_Kong',
  newYork: 'America/New_York',
} as const;

/** A name of EXCHANGE_ZONES; also the i18n key of its label (exchangeTime.zone.*). */
export type ExchangeZone = keyof typeof EXCHANGE_ZONES;

/**
 * The exchange zone of a market; an index or a futures contract is on the zone of its currency (an index
 * trades in its own currency: HSI in HKD, SPX in USD, Chinese indexes in CNY).
 */
export function exchangeZoneOf(market: string, currency?: string): ExchangeZone {
  if (market === 'hk' || currency === 'HKD') return 'hongKong';
  if (market === 'us' || currency === 'USD') return 'newYork';
  return 'beijing';
}

/**
 * Epoch ms → "yyyy-MM-dd HH:mm <zone label>" in the exchange's zone (`zoneLabel` is the translated
 * exchangeTime.zone name), or "HH:mm <zone label>" with `timeOnly`.
 */
export function formatExchangeTime(
  ms: number,
  zone: ExchangeZone,
  zoneLabel: string,
  timeOnly = false,
): string {
  const text = formatDateTime(ms, EXCHANGE_ZONES[zone]);
  return `${timeOnly ? text.slice(11, 16) : text.slice(0, 16)} ${zoneLabel}`;
}

/**
 * The time of a stored answer as its "as of" note says it: "16:24" when it is from today, else with its
 * date, "23 Nov 16:24" (and the year when not this year) in the reader's language: a three-day-old answer
 * must not read as today's.
 */
export function formatAsOf(storedAt: number, now: number, locale: string): string {
  const at = new Date(storedAt);
  const today = new Date(now);
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}`;
  if (at.toDateString() === today.toDateString()) return time;
  const date = new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'short',
    ...(at.getFullYear() !== today.getFullYear() ? { year: 'numeric' } : {}),
  }).format(at);
  return `${date} ${time}`;
}

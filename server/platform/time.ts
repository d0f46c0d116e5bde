/**
 * Time units and time-zone offsets, shared by every area: the market's sessions, the session cookie's end of
 * day, the rate limits' daily windows. Pure functions of an instant; offsets come from the platform's Intl
 * time-zone data, memoised.
 */
export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

const offsetCache = new Map<string, number>();
const OFFSET_BUCKET_MS = 30 * MINUTE_MS;

/**
 * Minutes the time zone is ahead of UTC at instant `t`, memoised per half hour (every offset change of the
 * markets' zones happens on a whole hour).
 */
export function tzOffsetMinutes(timeZone: string, t: number): number {
  if (timeZone === 'UTC') return 0;
  const key = `${timeZone}|${Math.floor(t / OFFSET_BUCKET_MS)}`;
  let offset = offsetCache.get(key);
  if (offset === undefined) {
    if (offsetCache.size > 200_000) offsetCache.clear();
    offset = computeTzOffsetMinutes(timeZone, t);
    offsetCache.set(key, offset);
  }
  return offset;
}

function computeTzOffsetMinutes(timeZone: string, t: number): number {
  let f = offsetFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    offsetFormatters.set(timeZone, f);
  }
  const parts = f.formatToParts(new Date(t));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
  const truncated = Math.floor(t / MINUTE_MS) * MINUTE_MS;
  return Math.round((asUtc - truncated) / MINUTE_MS);
}

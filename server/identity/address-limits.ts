/**
 * What one network address may try, against phone enumeration and lockout abuse (README "Security"):
 * - `throttleAddress`: logins and phone checks per address per hour (LOGIN_PER_IP_HOURLY,
 *   CHECK_PHONE_PER_IP_HOURLY), counted with the station's rate limiter (the database, or Redis when
 *   scaled out); `throttlePhoneCheck` also counts the checks of one phone from every address
 *   (CHECK_PHONE_PER_PHONE_HOURLY), so many addresses together cannot hammer one number either;
 * - `addressGuardKey`: the login guard's key for a phone tried from one address, so wrong passwords from
 *   one address lock that phone for that address only; the phone-wide guard counts every address.
 */
import { createHash } from 'node:crypto';
import { AppError, databaseRateLimiter, type Limit, type Station } from '../platform';

const HOUR_MS = 3_600_000;

const addressLimit = (station: Station, what: 'login' | 'check-phone', ip: string): Limit => ({
  kind: 'count',
  key: `${what}:ip:${ip.slice(0, 64)}`,
  period: Math.floor(station.clock.now() / HOUR_MS),
  limit:
    what === 'login'
      ? station.config.identity.loginPerIpHourly
      : station.config.identity.checkPhonePerIpHourly,
});

export async function throttleAddress(
  station: Station,
  what: 'login' | 'check-phone',
  ip: string | null,
): Promise<void> {
  if (ip === null) return;
  const limiter = station.rateLimiter ?? databaseRateLimiter;
  const taken = await limiter.take(station.db, [addressLimit(station, what, ip)]);
  if (taken.refused !== null) throw new AppError('RATE_LIMITED', { msgKey: 'TOO_MANY_FROM_ADDRESS' });
}

/** A phone check: counted for its address (when known) and for the phone, taken together or not at all. */
export async function throttlePhoneCheck(station: Station, phone: string, ip: string | null): Promise<void> {
  const limiter = station.rateLimiter ?? databaseRateLimiter;
  const limits: Limit[] = [
    ...(ip === null ? [] : [addressLimit(station, 'check-phone', ip)]),
    {
      kind: 'count',
      key: `check-phone:phone:${phone}`,
      period: Math.floor(station.clock.now() / HOUR_MS),
      limit: station.config.identity.checkPhonePerPhoneHourly,
    },
  ];
  const taken = await limiter.take(station.db, limits);
  if (taken.refused === null) return;
  const byAddress = ip !== null && taken.refused === 0;
  throw new AppError('RATE_LIMITED', {
    msgKey: byAddress ? 'TOO_MANY_FROM_ADDRESS' : 'PHONE_CHECKED_TOO_OFTEN',
  });
}

/** The phone's guard key for one address: the phone, '@', 8 hex of the address's hash (20 characters). */
export function addressGuardKey(phone: string, ip: string): string {
  return `${phone}@${createHash('sha256').update(ip).digest('hex').slice(0, 8)}`;
}

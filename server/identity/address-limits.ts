/**
 * What one network address may try, against phone enumeration and lockout abuse (README "Security"):
 * - `throttleAddress`: logins and phone checks per address per hour (LOGIN_PER_IP_HOURLY,
 *   CHECK_PHONE_PER_IP_HOURLY), counted with the station's rate limiter (the database, or Redis when
 *   scaled out);
 * - `addressGuardKey`: the login guard's key for a phone tried from one address, so wrong passwords from
 *   one address lock that phone for that address only; the phone-wide guard counts every address.
 */
import { createHash } from 'node:crypto';
import { AppError, databaseRateLimiter, type Station } from '../platform';

const HOUR_MS = 3_600_000;

export async function throttleAddress(
  station: Station,
  what: 'login' | 'check-phone',
  ip: string | null,
): Promise<void> {
  if (ip === null) return;
  const { identity } = station.config;
  const limit = what === 'login' ? identity.loginPerIpHourly : identity.checkPhonePerIpHourly;
  const limiter = station.rateLimiter ?? databaseRateLimiter;
  const taken = await limiter.take(station.db, [
    {
      kind: 'count',
      key: `${what}:ip:${ip.slice(0, 64)}`,
      period: Math.floor(station.clock.now() / HOUR_MS),
      limit,
    },
  ]);
  if (taken.refused !== null) throw new AppError('RATE_LIMITED', { msgKey: 'TOO_MANY_FROM_ADDRESS' });
}

/** The phone's guard key for one address: the phone, '@', 8 hex of the address's hash (20 characters). */
export function addressGuardKey(phone: string, ip: string): string {
  return `${phone}@${createHash('sha256').update(ip).digest('hex').slice(0, 8)}`;
}

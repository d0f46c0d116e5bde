/**
 * Sessions over HTTP (API.md): `Authorization: Bearer <token>` or the HttpOnly cookie USER_TOKEN, which
 * expires at the end of the current day (Asia/Shanghai by default).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, DAY_MS, MINUTE_MS, tzOffsetMinutes, type Station } from '../platform';
import { sessionOf, type SessionInfo } from './users';

export const TOKEN_COOKIE = 'USER_TOKEN';
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,100}$/;

/** The next local midnight in `timeZone` after instant `t`. */
export function endOfDay(t: number, timeZone: string): number {
  const offset = tzOffsetMinutes(timeZone, t) * MINUTE_MS;
  const localDay = Math.floor((t + offset) / DAY_MS);
  const nextMidnightWall = (localDay + 1) * DAY_MS;
  return nextMidnightWall - tzOffsetMinutes(timeZone, nextMidnightWall - offset) * MINUTE_MS;
}

export interface Auth {
  /** The token a request carries (header first, then cookie), or null. */
  tokenOf(request: FastifyRequest): string | null;
  /** onRequest hook for /user/ routes: NOT_LOGGED_IN without a live session. */
  requireUser(request: FastifyRequest): Promise<void>;
  /** The session a requireUser hook established. */
  session(request: FastifyRequest): SessionInfo;
  setCookie(reply: FastifyReply, token: string): void;
  clearCookie(reply: FastifyReply): void;
}

export function createAuth(station: Station): Auth {
  const tokenOf = (request: FastifyRequest): string | null => {
    const header = request.headers.authorization;
    if (typeof header === 'string') {
      const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
      if (match?.[1] && TOKEN_PATTERN.test(match[1])) return match[1];
    }
    const cookie = request.cookies[TOKEN_COOKIE];
    return cookie && TOKEN_PATTERN.test(cookie) ? cookie : null;
  };
  return {
    tokenOf,
    async requireUser(request) {
      const token = tokenOf(request);
      const session = token ? await sessionOf(station, token) : null;
      if (!session) throw new AppError('NOT_LOGGED_IN');
      request.session = session;
    },
    session(request) {
      if (!request.session) throw new AppError('NOT_LOGGED_IN');
      return request.session;
    },
    setCookie(reply, token) {
      reply.setCookie(TOKEN_COOKIE, token, {
        httpOnly: true,
        sameSite: 'lax',
        path: '/',
        secure: reply.request.protocol === 'https',
        expires: new Date(endOfDay(station.clock.now(), station.config.settings.cookieTimeZone)),
      });
    },
    clearCookie(reply) {
      reply.clearCookie(TOKEN_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax' });
    },
  };
}

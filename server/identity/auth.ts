/**
 * Sessions over HTTP (API.md): `Authorization: Bearer <token>` or the HttpOnly cookie USER_TOKEN, which
 * expires at the end of the current day (Asia/Shanghai by default).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fastifyCookie } from '@fastify/cookie';
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
  /**
   * CROSS_SITE when a state-changing call carries the session only as the cookie and a browser says it comes
   * from another site (`fromOwnSite`). Every call that acts on the cookie's session goes through this.
   */
  refuseCrossSite(request: FastifyRequest): void;
  /**
   * onRequest hook for the calls of a signed-in user: NOT_LOGGED_IN without a live session. Its answer,
   * refusals included, is never cached (`Cache-Control: no-store`), wherever the call lives.
   */
  requireUser(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** The session a requireUser hook established. */
  session(request: FastifyRequest): SessionInfo;
  setCookie(reply: FastifyReply, token: string): void;
  clearCookie(reply: FastifyReply): void;
}

/**
 * Cross-site request forgery: a browser sends the session cookie with a form POST from any page of the same
 * site (SameSite=Lax), so a state-changing call authenticated by the cookie must come from the station's
 * own origin or one of CORS_ORIGINS. Browsers say where a request comes from in `Sec-Fetch-Site` and
 * `Origin`; a request with neither comes from no browser page (a script, curl), which a cross-site attack
 * cannot make send the victim's cookie. Calls authenticated by the Authorization header are not affected:
 * no other site can make a browser add it.
 */
export function fromOwnSite(request: FastifyRequest, allowedOrigins: ReadonlySet<string>): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== 'null') {
    if (allowedOrigins.has(origin)) return true;
    return origin === `${request.protocol}://${request.host}`;
  }
  if (typeof fetchSite === 'string') return fetchSite === 'same-origin' || fetchSite === 'none';
  // `Origin: null` (a sandboxed frame, a redirect across sites) is never the station's own page.
  return origin === undefined;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function createAuth(station: Station): Auth {
  const allowedOrigins = new Set(station.config.identity.corsOrigins);
  const tokenOf = (request: FastifyRequest): string | null => {
    const header = request.headers.authorization;
    if (typeof header === 'string') {
      const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
      if (match?.[1] && TOKEN_PATTERN.test(match[1])) return match[1];
    }
    // Read here, the one place a cookie is read, rather than parsed for every call by @fastify/cookie's hook.
    const cookies = request.headers.cookie;
    const cookie = cookies ? fastifyCookie.parse(cookies)[TOKEN_COOKIE] : undefined;
    return cookie && TOKEN_PATTERN.test(cookie) ? cookie : null;
  };
  const refuseCrossSite = (request: FastifyRequest): void => {
    if (
      tokenOf(request) !== null &&
      !SAFE_METHODS.has(request.method) &&
      request.headers.authorization === undefined &&
      !fromOwnSite(request, allowedOrigins)
    ) {
      throw new AppError('CROSS_SITE');
    }
  };
  return {
    tokenOf,
    refuseCrossSite,
    async requireUser(request, reply) {
      // On the raw response, as the hardening plugin does, so an error answer keeps it too.
      reply.raw.setHeader('cache-control', 'no-store');
      refuseCrossSite(request);
      const token = tokenOf(request);
      const session = token ? await sessionOf(station, token) : null;
      if (!session) throw new AppError('NOT_LOGGED_IN');
      request.session = session;
    },
    session(request) {
      if (!request.session) throw new AppError('NOT_LOGGED_IN');
      return request.session;
    },
    // The session cookie is the station's only cookie: written here, as @fastify/cookie's setCookie and
    // clearCookie would write it, without its hook on every call's answer.
    setCookie(reply, token) {
      reply.header(
        'set-cookie',
        fastifyCookie.serialize(TOKEN_COOKIE, token, {
          httpOnly: true,
          sameSite: 'lax',
          path: '/',
          secure: reply.request.protocol === 'https',
          expires: new Date(endOfDay(station.clock.now(), station.config.settings.cookieTimeZone)),
        }),
      );
    },
    clearCookie(reply) {
      reply.header(
        'set-cookie',
        fastifyCookie.serialize(TOKEN_COOKIE, '', {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          expires: new Date(0),
          maxAge: 0,
        }),
      );
    },
  };
}

/**
 * Phone check, registration, login and logout: the calls that open or end a session.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import { isRegistered, login, logout, register } from '../users';
import {
  ok,
  fields,
  inviteCodeField,
  passwordField,
  phoneField,
  postConsumes,
  ref,
  responses,
  smsCodeField,
  userSecurity,
} from '../../platform';
import { localUserOf } from './user-account';
import { passwordRule, phoneRule, smsCodeRule } from './user-field-rules';

/** Checking a phone, registering, logging in and out. */
export function signInRoutes(app: FastifyInstance): void {
  const station = app.station;
  const localUser = localUserOf(app);
  const signedIn = async (reply: FastifyReply, session: { token: string; userId: number }) => {
    app.auth.setCookie(reply, session.token);
    return ok({ token: session.token, user: await localUser(reply.request, session.userId) });
  };

  app.get<{ Querystring: CallIn<'GET /api/user/checkPhone.do'> }>(
    '/api/user/checkPhone.do',
    {
      config: { fieldRules: { phone: phoneRule } },
      schema: {
        tags: ['user'],
        summary: 'Is this phone number registered?',
        querystring: fields({ phone: phoneField }, ['phone']),
        response: responses({
          type: 'object',
          properties: { registered: { type: 'boolean' } },
          required: ['registered'],
          additionalProperties: false,
        }),
      },
    },
    async (request) => ok({ registered: await isRegistered(station, request.query.phone, request.ip) }),
  );

  app.post<{ Body: CallIn<'POST /api/user/reg.do'> }>(
    '/api/user/reg.do',
    {
      config: { fieldRules: { phone: phoneRule, password: passwordRule, code: smsCodeRule } },
      schema: {
        tags: ['user'],
        summary: 'Register with phone, password and SMS code; opens the five paper accounts',
        consumes: postConsumes,
        body: fields(
          { phone: phoneField, password: passwordField, code: smsCodeField, inviteCode: inviteCodeField },
          ['phone', 'password', 'code'],
        ),
        response: responses(ref('AuthResult')),
      },
    },
    async (request, reply) => signedIn(reply, await register(station, request.body)),
  );

  app.post<{ Body: CallIn<'POST /api/user/login.do'> }>(
    '/api/user/login.do',
    {
      config: { fieldRules: { phone: phoneRule, password: passwordRule } },
      schema: {
        tags: ['user'],
        summary: 'Log in; sets the USER_TOKEN cookie and returns the token',
        consumes: postConsumes,
        body: fields({ phone: phoneField, password: passwordField }, ['phone', 'password']),
        response: responses(ref('AuthResult')),
      },
    },
    async (request, reply) => signedIn(reply, await login(station, request.body, request.ip)),
  );

  app.post(
    '/api/user/logout.do',
    {
      schema: {
        tags: ['user'],
        summary: 'Log out: revokes the session of the token or cookie',
        security: userSecurity,
        consumes: postConsumes,
        body: fields({}),
        response: responses({ type: 'null' }),
      },
    },
    async (request, reply) => {
      // A foreign page must not end the user's session either (README "Security").
      app.auth.refuseCrossSite(request);
      const token = app.auth.tokenOf(request);
      if (token) await logout(station, token);
      app.auth.clearCookie(reply);
      return ok(null);
    },
  );
}

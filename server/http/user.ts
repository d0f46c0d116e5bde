/** User calls: SMS codes, phone check, registration, login, logout, and the user's own info. */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { CallIn } from '../../src/shared/api/calls';
import { checkPassword, checkPhone, checkSmsCode } from '../../src/shared/validation';
import { isRegistered, login, logout, register, sendSmsCode, userInfo } from '../domain/users';
import type { FieldRule } from './fastify-types';
import { ok } from './envelope';
import {
  fields,
  postConsumes,
  inviteCodeField,
  passwordField,
  phoneField,
  ref,
  responses,
  smsCodeField,
  userSecurity,
} from './schemas';

const asText = (raw: unknown): string | undefined => (typeof raw === 'string' ? raw : undefined);
const phoneRule: FieldRule = (raw) =>
  checkPhone(asText(raw)) ?? (typeof raw === 'string' ? null : 'phoneInvalid');
const passwordRule: FieldRule = (raw) =>
  checkPassword(asText(raw)) ?? (typeof raw === 'string' ? null : 'passwordInvalid');
const smsCodeRule: FieldRule = (raw) =>
  checkSmsCode(asText(raw)) ?? (typeof raw === 'string' ? null : 'codeInvalid');

export const userPlugin: FastifyPluginAsync = async (app) => {
  const station = app.station;

  const signedIn = async (reply: FastifyReply, session: { token: string; userId: number }) => {
    app.auth.setCookie(reply, session.token);
    return ok({ token: session.token, user: await userInfo(station, session.userId) });
  };

  app.post<{ Body: CallIn<'POST /api/sms/sendRegSms.do'> }>(
    '/api/sms/sendRegSms.do',
    {
      config: { fieldRules: { phone: phoneRule } },
      schema: {
        tags: ['user'],
        summary: 'Send a registration code (the demo gateway returns it in demoCode)',
        consumes: postConsumes,
        body: fields({ phone: phoneField }, ['phone']),
        response: responses({
          type: 'object',
          properties: { ttlSeconds: { type: 'integer' }, demoCode: { type: 'string' } },
          required: ['ttlSeconds'],
          additionalProperties: false,
        }),
      },
    },
    async (request) => ok(await sendSmsCode(station, request.body.phone, 'reg')),
  );

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
    async (request) => ok({ registered: await isRegistered(station, request.query.phone) }),
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
    async (request, reply) => signedIn(reply, await login(station, request.body)),
  );

  app.post(
    '/api/user/logout.do',
    {
      schema: {
        tags: ['user'],
        summary: 'Log out: revokes the session of the token or cookie',
        consumes: postConsumes,
        body: fields({}),
        response: responses({ type: 'null' }),
      },
    },
    async (request, reply) => {
      const token = app.auth.tokenOf(request);
      if (token) await logout(station, token);
      app.auth.clearCookie(reply);
      return ok(null);
    },
  );

  app.get(
    '/user/getUserInfo.do',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['user'],
        summary: 'The logged-in user with the five accounts',
        security: userSecurity,
        querystring: fields({}),
        response: responses(ref('User')),
      },
    },
    async (request) => ok(await userInfo(station, app.auth.session(request).userId)),
  );
};

/** User calls: SMS codes, phone check, registration, login, logout, and the user's own info. */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import {
  checkPassword,
  checkPhone,
  checkSmsCode,
  checkWithdrawPassword,
} from '../../../src/shared/validation';
import {
  changePassword,
  checkCode,
  isRegistered,
  login,
  logout,
  register,
  resetPassword,
  sendSmsCode,
  setWithdrawPassword,
  userInfo,
  type SmsPurpose,
} from '../users';
import type { FieldRule } from '../../platform/http/fastify-types';
import { ok } from '../../platform/http/envelope';
import { localizeUser } from './kyc';
import { PERMISSIONS, permissionsOf } from '../permissions';
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
} from '../../platform/http/schemas';

const asText = (raw: unknown): string | undefined => (typeof raw === 'string' ? raw : undefined);
const phoneRule: FieldRule = (raw) =>
  checkPhone(asText(raw)) ?? (typeof raw === 'string' ? null : 'phoneInvalid');
const passwordRule: FieldRule = (raw) =>
  checkPassword(asText(raw)) ?? (typeof raw === 'string' ? null : 'passwordInvalid');
const smsCodeRule: FieldRule = (raw) =>
  checkSmsCode(asText(raw)) ?? (typeof raw === 'string' ? null : 'codeInvalid');
const withdrawPasswordRule: FieldRule = (raw) =>
  checkWithdrawPassword(asText(raw)) ?? (typeof raw === 'string' ? null : 'withdrawPasswordInvalid');
const smsResult = {
  type: 'object',
  properties: { ttlSeconds: { type: 'integer' }, demoCode: { type: 'string' } },
  required: ['ttlSeconds'],
  additionalProperties: false,
} as const;
const withdrawPasswordField = { type: 'string', maxLength: 32, description: '6 digits' } as const;

export const userPlugin: FastifyPluginAsync = async (app) => {
  const station = app.station;

  const localUser = async (request: FastifyRequest, userId: number) =>
    localizeUser(app.i18n.messages(request.headers['accept-language']), await userInfo(station, userId));
  const signedIn = async (reply: FastifyReply, session: { token: string; userId: number }) => {
    app.auth.setCookie(reply, session.token);
    return ok({ token: session.token, user: await localUser(reply.request, session.userId) });
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
        response: responses(smsResult),
      },
    },
    async (request) => ok(await sendSmsCode(station, request.body.phone, 'reg', request.ip)),
  );

  app.post<{ Body: CallIn<'POST /api/sms/sendForgetSms.do'> }>(
    '/api/sms/sendForgetSms.do',
    {
      config: { fieldRules: { phone: phoneRule } },
      schema: {
        tags: ['user'],
        summary: 'Send a forgotten-password code to a registered phone (demo gateway: in demoCode)',
        consumes: postConsumes,
        body: fields({ phone: phoneField }, ['phone']),
        response: responses(smsResult),
      },
    },
    async (request) => ok(await sendSmsCode(station, request.body.phone, 'forget', request.ip)),
  );

  app.post<{ Body: CallIn<'POST /code/checkCode.do'> }>(
    '/code/checkCode.do',
    {
      config: { fieldRules: { phone: phoneRule, code: smsCodeRule } },
      schema: {
        tags: ['user'],
        summary: 'Is this SMS code right and live? (does not use it up; wrong guesses count)',
        consumes: postConsumes,
        body: fields(
          {
            phone: phoneField,
            code: smsCodeField,
            purpose: { type: 'string', enum: ['reg', 'forget'], default: 'reg' },
          },
          ['phone', 'code'],
        ),
        response: responses({ type: 'null' }),
      },
    },
    async (request) => {
      const purpose: SmsPurpose = request.body.purpose ?? 'reg';
      await checkCode(station, { phone: request.body.phone, code: request.body.code, purpose });
      return ok(null);
    },
  );

  app.post<{ Body: CallIn<'POST /api/user/updatePwd.do'> }>(
    '/api/user/updatePwd.do',
    {
      config: { fieldRules: { phone: phoneRule, code: smsCodeRule, password: passwordRule } },
      schema: {
        tags: ['user'],
        summary: 'Forgotten password: SMS code and a new password; every session ends',
        consumes: postConsumes,
        body: fields({ phone: phoneField, code: smsCodeField, password: passwordField }, [
          'phone',
          'code',
          'password',
        ]),
        response: responses({ type: 'null' }),
      },
    },
    async (request) => {
      await resetPassword(station, request.body);
      return ok(null);
    },
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
    async (request) => ok(await localUser(request, app.auth.session(request).userId)),
  );

  app.post<{ Body: CallIn<'POST /user/updatePwd.do'> }>(
    '/user/updatePwd.do',
    {
      onRequest: app.auth.requireUser,
      config: { fieldRules: { oldPassword: passwordRule, password: passwordRule } },
      schema: {
        tags: ['user'],
        summary: 'Change the login password (old and new); the other sessions end',
        security: userSecurity,
        consumes: postConsumes,
        body: fields(
          { oldPassword: passwordField, password: passwordField, confirmPassword: passwordField },
          ['oldPassword', 'password'],
        ),
        response: responses({ type: 'null' }),
      },
    },
    async (request) => {
      await changePassword(station, app.auth.session(request), request.body);
      return ok(null);
    },
  );

  app.post<{ Body: CallIn<'POST /user/insertWithPwd.do'> }>(
    '/user/insertWithPwd.do',
    {
      onRequest: app.auth.requireUser,
      config: { fieldRules: { withPwd: withdrawPasswordRule } },
      schema: {
        tags: ['user'],
        summary: 'Set the withdrawal password (6 digits), or change it with the current one in oldWithPwd',
        security: userSecurity,
        consumes: postConsumes,
        body: fields({ withPwd: withdrawPasswordField, oldWithPwd: withdrawPasswordField }, ['withPwd']),
        response: responses({ type: 'null' }),
      },
    },
    async (request) => {
      await setWithdrawPassword(station, app.auth.session(request), request.body);
      return ok(null);
    },
  );

  app.get(
    '/user/getPermissions.do',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['user'],
        summary: 'The permission flags the back office granted to the logged-in user',
        security: userSecurity,
        querystring: fields({}),
        response: responses({
          type: 'object',
          properties: { permissions: { type: 'array', items: { type: 'string', enum: [...PERMISSIONS] } } },
          required: ['permissions'],
          additionalProperties: false,
        }),
      },
    },
    async (request) => ok({ permissions: await permissionsOf(station, app.auth.session(request).userId) }),
  );
};

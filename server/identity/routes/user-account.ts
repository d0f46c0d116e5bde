/**
 * The signed-in user's own account: their info, login and withdrawal passwords, and permissions.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import { changePassword, setWithdrawPassword, userInfo } from '../users';
import { ok, fields, passwordField, postConsumes, ref, responses, userSecurity } from '../../platform';
import { localizeUser } from './kyc';
import { PERMISSIONS, permissionsOf } from '../permissions';
import { passwordRule, withdrawPasswordRule } from './user-field-rules';

const withdrawPasswordField = { type: 'string', maxLength: 32, description: '6 digits' } as const;

/** The user's info in the reader's language. */
export function localUserOf(app: FastifyInstance) {
  return async (request: FastifyRequest, userId: number) =>
    localizeUser(app.i18n.messages(request.headers['accept-language']), await userInfo(app.station, userId));
}

/** The user's info, changing the login and withdrawal passwords, and the granted permissions. */
export function userAccountRoutes(app: FastifyInstance): void {
  const station = app.station;
  const localUser = localUserOf(app);

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
}

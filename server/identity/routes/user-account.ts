/**
 * The signed-in user's own account: their info, login and withdrawal passwords, and permissions.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CallIn } from '../../../src/shared/api/calls';
import { changePassword, setWithdrawPassword, userInfo } from '../users';
import { ok, fields, passwordField, postConsumes, ref, responses, userSecurity } from '../../platform';
import { localizeUser } from './kyc';
import {
  PERMISSIONS,
  REQUESTABLE,
  pendingRequestsOf,
  permissionsOf,
  requestPermission,
} from '../permissions';
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
        summary:
          'The permission flags the back office granted to the logged-in user, and those requested and not decided yet',
        security: userSecurity,
        querystring: fields({}),
        response: responses({
          type: 'object',
          properties: {
            permissions: { type: 'array', items: { type: 'string', enum: [...PERMISSIONS] } },
            requested: { type: 'array', items: { type: 'string', enum: [...PERMISSIONS] } },
          },
          required: ['permissions', 'requested'],
          additionalProperties: false,
        }),
      },
    },
    async (request) => {
      const { userId } = app.auth.session(request);
      return ok({
        permissions: await permissionsOf(station, userId),
        requested: await pendingRequestsOf(station, userId),
      });
    },
  );

  app.post<{ Body: CallIn<'POST /user/requestPermission.do'> }>(
    '/user/requestPermission.do',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['user'],
        summary:
          'Ask for a permission (the VIP permission): the rule reviewer grants it after REVIEW_DELAY_S, unless VIP_PERMISSION=operator leaves it to the operator',
        security: userSecurity,
        consumes: postConsumes,
        body: fields({ permission: { type: 'string', enum: [...REQUESTABLE] } }, ['permission']),
        response: responses({
          type: 'object',
          properties: { status: { type: 'string', enum: ['granted', 'pending'] } },
          required: ['status'],
          additionalProperties: false,
        }),
      },
    },
    async (request) => {
      const { userId } = app.auth.session(request);
      return ok({ status: await requestPermission(station, userId, request.body.permission) });
    },
  );
}
